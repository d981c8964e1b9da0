func.func @unsqueeze_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.unsqueeze %x dim 3 : !layout.tensor<3x4xf32>
  return
}
