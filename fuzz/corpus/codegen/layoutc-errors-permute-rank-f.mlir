func.func @f(%x: !layout.tensor<3x4xf32>) {
  %p = layout.permute %x [1, 0, 2] : !layout.tensor<3x4xf32>
  return
}
