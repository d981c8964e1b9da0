func.func @f(%x: !layout.tensor<3x4xf32>) {
  %f = layout.flip %x [0, -2] : !layout.tensor<3x4xf32>
  return
}
