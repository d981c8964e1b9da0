func.func @flip_repeated_dim(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.flip %x [0, -2] : !layout.tensor<3x4xf32>
  return
}
