func.func @as_strided_dynamic_marker_without_value(%s: !layout.storage<12xf32>) {
  %0 = layout.as_strided %s [-9223372036854775808] strides [1] offset 0 : !layout.storage<12xf32>
  return
}
