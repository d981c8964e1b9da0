func.func @as_strided_of_view(%s: !layout.storage<12xbf16>) -> !layout.tensor<12xbf16> {
  %v = layout.as_strided %s [2] strides [1] offset 0 : !layout.storage<12xbf16>
  %w = layout.as_strided %v [12] strides [1] offset 0 : !layout.tensor<2xbf16>
  return %w : !layout.tensor<12xbf16>
}
