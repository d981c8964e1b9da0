func.func @missing_declared_type(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32> ->
  return
}
