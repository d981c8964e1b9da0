func.func @as_strided_negative_size(%s: !layout.storage<12xf32>) {
  %0 = layout.as_strided %s [-1, 4] strides [4, 1] offset 0 : !layout.storage<12xf32>
  return
}
