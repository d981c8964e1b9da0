func.func @permutes_cancel(%x: !layout.tensor<2x3x4xf32>) -> !layout.tensor<2x3x4xf32> {
  %p1 = layout.permute %x [2, 0, 1] : !layout.tensor<2x3x4xf32>
  %c1 = layout.contiguous %p1 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %p2 = layout.permute %c1 [1, 2, 0] : !layout.tensor<4x2x3xf32>
  %c2 = layout.contiguous %p2 : !layout.tensor<2x3x4xf32, strided<[3, 1, 6]>>
  return %c2 : !layout.tensor<2x3x4xf32>
}
