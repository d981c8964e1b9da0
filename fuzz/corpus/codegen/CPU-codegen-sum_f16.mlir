func.func @sum_f16(%x: !layout.tensor<4096xf16>) -> !layout.tensor<f16> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<4096xf16>
  return %r : !layout.tensor<f16>
}
