func.func @unflatten_rank0(%x: !layout.tensor<f32>) {
  %0 = layout.unflatten %x dim 0 [1] : !layout.tensor<f32>
  return
}
