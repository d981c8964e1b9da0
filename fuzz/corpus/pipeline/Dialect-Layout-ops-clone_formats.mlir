func.func @clone_formats(%p: !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, %x: !layout.tensor<2x3x4x5xf32>, %v: !layout.tensor<2x3x4x5x6xf32>) {
  %a = layout.clone %p contiguous : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %b = layout.clone %x channels_last : !layout.tensor<2x3x4x5xf32>
  %c = layout.clone %v channels_last_3d : !layout.tensor<2x3x4x5x6xf32>
  return
}
