func.func @permute_duplicate_dims(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.permute %x [0, -2] : !layout.tensor<3x4xf32>
  return
}
