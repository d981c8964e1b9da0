func.func @slice_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.slice %x dim -3 [0 : 1 : 1] : !layout.tensor<3x4xf32>
  return
}
