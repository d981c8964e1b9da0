func.func @contiguous_channels_last(%x: !layout.tensor<2x3x4x5xf32>, %n: !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, %v: !layout.tensor<2x3x4x5x6xf32>) {
  %a = layout.contiguous %x channels_last : !layout.tensor<2x3x4x5xf32>
  %b = layout.contiguous %n channels_last : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
  %c = layout.contiguous %v channels_last_3d : !layout.tensor<2x3x4x5x6xf32>
  return
}
