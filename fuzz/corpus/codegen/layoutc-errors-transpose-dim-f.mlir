func.func @f(%x: !layout.tensor<3x4xf32>) {
  %t = layout.transpose %x 0, 2 : !layout.tensor<3x4xf32>
  return
}
