func.func @as_strided_negative_offset(%s: !layout.storage<12xf32>) {
  %0 = layout.as_strided %s [3, 4] strides [4, 1] offset -1 : !layout.storage<12xf32>
  return
}
