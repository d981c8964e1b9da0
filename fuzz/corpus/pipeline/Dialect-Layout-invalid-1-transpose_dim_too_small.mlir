func.func @transpose_dim_too_small(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.transpose %x -3, 0 : !layout.tensor<3x4xf32>
  return
}
