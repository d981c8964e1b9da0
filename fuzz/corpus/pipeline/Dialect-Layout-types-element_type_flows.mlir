func.func @element_type_flows(%s: !layout.storage<6xui8>, %t: !layout.tensor<2x3xbf16>) {
  %a = layout.as_strided %s [2, 3] strides [3, 1] offset 0 : !layout.storage<6xui8>
  %b = layout.transpose %t 0, 1 : !layout.tensor<2x3xbf16>
  return
}
