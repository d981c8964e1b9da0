func.func @squeeze_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.squeeze %x [2] : !layout.tensor<3x4xf32>
  return
}
