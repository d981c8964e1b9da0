func.func @lines(%x: !layout.tensor<2112x2048xf32>) -> !layout.tensor<2048x2112xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2112x2048xf32>
  %c = layout.contiguous %t : !layout.tensor<2048x2112xf32, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x2112xf32>
}
