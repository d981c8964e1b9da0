func.func @unflatten_empty_sizes(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.unflatten %x dim 1 [] : !layout.tensor<3x4xf32>
  return
}
