func.func @f(%x: !layout.tensor<3x4xf32>) {
  %d = layout.diagonal %x offset 0 dims 1, 1 : !layout.tensor<3x4xf32>
  return
}
