func.func @expand(%x: !layout.tensor<3xf32>) -> !layout.tensor<2x3xf32, strided<[0, 1]>> {
  %e = layout.expand %x [2, 3] : !layout.tensor<3xf32>
  return %e : !layout.tensor<2x3xf32, strided<[0, 1]>>
}
