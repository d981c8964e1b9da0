func.func @as_strided(%s: !layout.storage<12xf32>) -> (!layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>) {
  %a = layout.as_strided %s [2, 2] strides [4, 2] offset 0 : !layout.storage<12xf32>
  %b = layout.as_strided %s [2, 2] strides [4, 2] offset 1 : !layout.storage<12xf32>
  return %a, %b : !layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}
