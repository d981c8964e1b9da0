func.func @contiguous_channels_last_3d_rank4(%x: !layout.tensor<2x3x4x5xf32>) {
  %0 = layout.contiguous %x channels_last_3d : !layout.tensor<2x3x4x5xf32>
  return
}
