func.func @reduce_misspelled_keepdim(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.reduce sum %x dims [0] keepdims : !layout.tensor<3x4xf32>
  return
}
