func.func @f(%s: !layout.storage<12xf32>) {
  %a = layout.as_strided %s [2, 2] strides [4, 2] offset 7 : !layout.storage<12xf32>
  return
}
