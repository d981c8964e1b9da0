func.func @as_strided_dynamic_stride_marker_without_value(%s: !layout.storage<12xf32>) {
  %0 = layout.as_strided %s [3] strides [-9223372036854775808] offset 0 : !layout.storage<12xf32>
  return
}
