func.func @fused_and_removed(%x: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<4x2x3xf32>, !layout.tensor<2x3x4xf32>, !layout.tensor<3xf32>) {
  %p1 = layout.permute %x [1, 2, 0] : !layout.tensor<2x3x4xf32>
  %c1 = layout.contiguous %p1 : !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>
  %p2 = layout.permute %c1 [1, 2, 0] : !layout.tensor<3x4x2xf32>
  %c2 = layout.contiguous %p2 : !layout.tensor<4x2x3xf32, strided<[2, 1, 8]>>
  %cx = layout.contiguous %x : !layout.tensor<2x3x4xf32>
  %t = layout.transpose %x 0, 2 : !layout.tensor<2x3x4xf32>
  %ct = layout.contiguous %t : !layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>
  %r = layout.reduce sum %ct dims [0, 2] : !layout.tensor<4x3x2xf32>
  return %c2, %cx, %r : !layout.tensor<4x2x3xf32>, !layout.tensor<2x3x4xf32>, !layout.tensor<3xf32>
}
