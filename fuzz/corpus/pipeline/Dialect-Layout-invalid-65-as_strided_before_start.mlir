func.func @as_strided_before_start(%s: !layout.storage<12xf64>) {
  %0 = layout.as_strided %s [3] strides [-1] offset 1 : !layout.storage<12xf64>
  return
}
