func.func @as_strided_through_view_out_of_bounds(%x: !layout.tensor<3x4xi64>) {
  %v = layout.select %x dim 0 index 1 : !layout.tensor<3x4xi64>
  %0 = layout.as_strided %v [13] strides [1] offset 0 : !layout.tensor<4xi64, strided<[1], offset: 4>>
  return
}
