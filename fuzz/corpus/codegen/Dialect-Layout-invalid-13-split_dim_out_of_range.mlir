func.func @split_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  %0:2 = layout.split %x dim 2 [2, 2] : !layout.tensor<3x4xf32>
  return
}
