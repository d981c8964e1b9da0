func.func @squeeze_missing_dims(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.squeeze %x : !layout.tensor<3x4xf32>
  return
}
