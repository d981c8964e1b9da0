func.func @views_that_may_copy(%x: !layout.tensor<3x4xf32>, %w: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<2x6xf32>, !layout.tensor<2x2x3xf32, strided<[2, 1, 4]>>, !layout.tensor<12xf32>, !layout.tensor<2x8xf32, strided<[12, 1], offset: 4>>, !layout.tensor<3x4xf32>) {
  %r = layout.reshape %x [2, 6] : !layout.tensor<3x4xf32>
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %rt = layout.reshape %t [2, 2, 3] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %f = layout.flatten %x dims 0 to 1 : !layout.tensor<3x4xf32>
  %s = layout.slice %w dim 1 [1 : 3 : 1] : !layout.tensor<2x3x4xf32>
  %fs = layout.flatten %s dims 1 to 2 : !layout.tensor<2x2x4xf32, strided<[12, 4, 1], offset: 4>>
  %h = layout.to %x f32 : !layout.tensor<3x4xf32>
  return %r, %rt, %f, %fs, %h : !layout.tensor<2x6xf32>, !layout.tensor<2x2x3xf32, strided<[2, 1, 4]>>, !layout.tensor<12xf32>, !layout.tensor<2x8xf32, strided<[12, 1], offset: 4>>, !layout.tensor<3x4xf32>
}
