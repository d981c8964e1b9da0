func.func @f(%x: !layout.tensor<3x4xf32>) {
  %c = layout.contiguous %x channels_last : !layout.tensor<3x4xf32>
  return
}
