func.func @reduce_rank0_dim_out_of_range(%x: !layout.tensor<f32>) {
  %0 = layout.reduce sum %x dims [1] : !layout.tensor<f32>
  return
}
