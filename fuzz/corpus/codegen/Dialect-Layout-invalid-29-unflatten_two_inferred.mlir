func.func @unflatten_two_inferred(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.unflatten %x dim 1 [-1, -1] : !layout.tensor<3x4xf32>
  return
}
