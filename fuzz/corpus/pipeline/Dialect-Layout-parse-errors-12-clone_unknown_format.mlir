func.func @clone_unknown_format(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.clone %x channels_first : !layout.tensor<3x4xf32>
  return
}
