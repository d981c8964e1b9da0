func.func @as_strided_empty(%s: !layout.storage<12xf32>) -> !layout.tensor<0x3xf32, strided<[3, 1], offset: 100>> {
  %v = layout.as_strided %s [0, 3] strides [3, 1] offset 100 : !layout.storage<12xf32>
  return %v : !layout.tensor<0x3xf32, strided<[3, 1], offset: 100>>
}
