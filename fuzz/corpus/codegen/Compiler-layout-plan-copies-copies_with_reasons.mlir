func.func @copies_with_reasons(%x: !layout.tensor<3x4xf32>, %z: !layout.tensor<2x3x4x5xf32>, %v: !layout.tensor<2x3x4x5x6xf32>) -> (!layout.tensor<4x3xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x3x4x5x6xf32, strided<[360, 1, 90, 18, 3]>>, !layout.tensor<4x3xf16, strided<[1, 4]>>, !layout.tensor<3x4xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %cl = layout.contiguous %z channels_last : !layout.tensor<2x3x4x5xf32>
  %cl3 = layout.contiguous %v channels_last_3d : !layout.tensor<2x3x4x5x6xf32>
  %h = layout.to %t f16 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %cc = layout.clone %x : !layout.tensor<3x4xf32>
  %ct = layout.clone %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %c, %cl, %cl3, %h, %cc, %ct : !layout.tensor<4x3xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x3x4x5x6xf32, strided<[360, 1, 90, 18, 3]>>, !layout.tensor<4x3xf16, strided<[1, 4]>>, !layout.tensor<3x4xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>
}
