func.func @unflatten_bad_sizes(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.unflatten %x dim 1 [3, 2] : !layout.tensor<3x4xf32>
  return
}
