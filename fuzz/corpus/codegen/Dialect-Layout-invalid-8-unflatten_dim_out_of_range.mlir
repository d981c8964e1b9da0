func.func @unflatten_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.unflatten %x dim 5 [1] : !layout.tensor<3x4xf32>
  return
}
