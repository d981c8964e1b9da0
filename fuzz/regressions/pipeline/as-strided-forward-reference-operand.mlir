func.func @elype_flows(%S: !layout.storage<6xui8>, %t: !layout.tensor<2x3xbf16>) {
  %a = layout.as_strided %s [4, 3] strides [3, 1] offset 0 :ui8>, %t: !layout.tensor<2x3xbf16>) {
  %a = layout.as_ !layout.storage<6xui8>
àsor<2!l