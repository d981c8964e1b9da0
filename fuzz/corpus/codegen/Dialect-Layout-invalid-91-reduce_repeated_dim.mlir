func.func @reduce_repeated_dim(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.reduce sum %x dims [0, -2] : !layout.tensor<3x4xf32>
  return
}
