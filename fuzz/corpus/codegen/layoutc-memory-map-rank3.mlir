func.func @rank3(%x: !layout.tensor<2x3x4xf32>) -> !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> {
  %p = layout.permute %x [2, 0, 1] : !layout.tensor<2x3x4xf32>
  return %p : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
}
