func.func @flip_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.flip %x [2] : !layout.tensor<3x4xf32>
  return
}
