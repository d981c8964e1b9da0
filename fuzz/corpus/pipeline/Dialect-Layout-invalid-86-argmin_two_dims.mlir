func.func @argmin_two_dims(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.reduce argmin %x dims [0, 1] keepdim : !layout.tensor<3x4xf32>
  return
}
