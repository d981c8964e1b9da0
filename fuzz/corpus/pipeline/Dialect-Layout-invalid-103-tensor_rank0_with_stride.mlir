func.func @tensor_rank0_with_stride(%x: !layout.tensor<f32, strided<[1]>>) {
  return
}
