func.func @squeeze_repeated_dim(%x: !layout.tensor<1x3x1xf32>) {
  %0 = layout.squeeze %x [0, -3] : !layout.tensor<1x3x1xf32>
  return
}
