func.func @movedim_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.movedim %x 0 to 2 : !layout.tensor<3x4xf32>
  return
}
