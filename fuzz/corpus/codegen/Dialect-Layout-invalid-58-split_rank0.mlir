func.func @split_rank0(%x: !layout.tensor<f32>) {
  %0 = layout.split %x dim 0 [1] : !layout.tensor<f32>
  return
}
