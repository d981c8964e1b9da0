func.func @narrow_rank0(%x: !layout.tensor<f32>) {
  %0 = layout.narrow %x dim 0 start 0 length 1 : !layout.tensor<f32>
  return
}
