func.func @as_strided_dynamic_offset_marker_without_value(%s: !layout.storage<12xf32>) {
  %0 = layout.as_strided %s [3] strides [1] offset -9223372036854775808 : !layout.storage<12xf32>
  return
}
