func.func @diagonal_identical_dims(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.diagonal %x offset 0 dims 1, -1 : !layout.tensor<3x4xf32>
  return
}
