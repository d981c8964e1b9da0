func.func @as_strided_tensor_out_of_bounds(%x: !layout.tensor<4xf16, strided<[1], offset: 4>>) {
  %0 = layout.as_strided %x [5] strides [1] offset 4 : !layout.tensor<4xf16, strided<[1], offset: 4>>
  return
}
