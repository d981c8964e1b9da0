func.func @select_rank0(%x: !layout.tensor<f32>) {
  %0 = layout.select %x dim 0 index 0 : !layout.tensor<f32>
  return
}
