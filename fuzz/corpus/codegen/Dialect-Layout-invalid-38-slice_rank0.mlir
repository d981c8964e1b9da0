func.func @slice_rank0(%x: !layout.tensor<f32>) {
  %0 = layout.slice %x dim 0 [0 : 1 : 1] : !layout.tensor<f32>
  return
}
