func.func @argmax_two_dims(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.reduce argmax %x dims [0, 1] : !layout.tensor<3x4xf32>
  return
}
