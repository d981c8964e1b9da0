func.func @large(%x: !layout.tensor<20x20xf32>) -> !layout.tensor<20x20xf32, strided<[1, 20]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<20x20xf32>
  return %t : !layout.tensor<20x20xf32, strided<[1, 20]>>
}
