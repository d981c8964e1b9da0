func.func @as_strided_broadcast(%s: !layout.storage<4xi32>) -> !layout.tensor<3x4xi32, strided<[0, 1]>> {
  %v = layout.as_strided %s [3, 4] strides [0, 1] offset 0 : !layout.storage<4xi32>
  return %v : !layout.tensor<3x4xi32, strided<[0, 1]>>
}
