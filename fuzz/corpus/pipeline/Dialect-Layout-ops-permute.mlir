func.func @permute(%x: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>) {
  %a = layout.permute %x [2, 0, 1] : !layout.tensor<2x3x4xf32>
  %b = layout.permute %x [1, -1, 0] : !layout.tensor<2x3x4xf32>
  return %a, %b : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>
}
