func.func @as_strided_negative_stride(%s: !layout.storage<3xf64>) -> !layout.tensor<3xf64, strided<[-1], offset: 2>> {
  %v = layout.as_strided %s [3] strides [-1] offset 2 : !layout.storage<3xf64>
  return %v : !layout.tensor<3xf64, strided<[-1], offset: 2>>
}
