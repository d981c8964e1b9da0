func.func @clone_channels_last_rank3(%x: !layout.tensor<2x3x4xf32>) {
  %0 = layout.clone %x channels_last : !layout.tensor<2x3x4xf32>
  return
}
