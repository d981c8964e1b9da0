func.func @p1_quick(%x: !layout.tensor<2048x2048xf32>) -> !layout.tensor<2048x2048xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<2048x2048xf32>
  %c = layout.contiguous %v : !layout.tensor<2048x2048xf32, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x2048xf32>
}
