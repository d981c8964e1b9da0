func.func @contiguous_channels_last_rank3(%x: !layout.tensor<2x3x4xf32>) {
  %0 = layout.contiguous %x channels_last : !layout.tensor<2x3x4xf32>
  return
}
