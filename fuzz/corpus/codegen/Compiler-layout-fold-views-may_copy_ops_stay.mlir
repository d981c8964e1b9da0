func.func @may_copy_ops_stay(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<4x3xf16>) -> (!layout.tensor<4x3xf32>, !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>, !layout.tensor<12xf32>, !layout.tensor<12xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf16, strided<[1, 4]>>, !layout.tensor<3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %s = layout.select %c dim 0 index 1 : !layout.tensor<4x3xf32>
  %cv = layout.unsqueeze %s dim 0 : !layout.tensor<3xf32, strided<[1], offset: 3>>
  %r = layout.reshape %t [12] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %f = layout.flatten %t dims 0 to 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %cl = layout.clone %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %h = layout.to %t f16 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %sum = layout.reduce sum %t dims [0] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  layout.copy %t, %y : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf16>
  return %c, %cv, %r, %f, %cl, %h, %sum : !layout.tensor<4x3xf32>, !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>, !layout.tensor<12xf32>, !layout.tensor<12xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf16, strided<[1, 4]>>, !layout.tensor<3xf32>
}
