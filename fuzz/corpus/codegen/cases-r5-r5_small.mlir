func.func @r5_small(%x: !layout.tensor<256x512xf16>) -> !layout.tensor<f16> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<256x512xf16>
  return %r : !layout.tensor<f16>
}
