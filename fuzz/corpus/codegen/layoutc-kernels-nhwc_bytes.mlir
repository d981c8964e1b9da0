func.func @nhwc_bytes(%x: !layout.tensor<16x3x1024x1024xi8>) -> !layout.tensor<16x3x1024x1024xi8, strided<[3145728, 1, 3072, 3]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<16x3x1024x1024xi8>
  return %c : !layout.tensor<16x3x1024x1024xi8, strided<[3145728, 1, 3072, 3]>>
}
