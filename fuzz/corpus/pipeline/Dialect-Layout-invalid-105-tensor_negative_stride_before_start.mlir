func.func @tensor_negative_stride_before_start(%x: !layout.tensor<3x4xf32, strided<[-4, 1]>>) {
  return
}
