func.func @reduce_missing_dims(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.reduce sum %x [0] : !layout.tensor<3x4xf32>
  return
}
