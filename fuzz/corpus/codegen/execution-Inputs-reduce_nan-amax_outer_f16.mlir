func.func @amax_outer_f16(%x: !layout.tensor<67x40xf16>) -> !layout.tensor<40xf16> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<67x40xf16>
  return %r : !layout.tensor<40xf16>
}
