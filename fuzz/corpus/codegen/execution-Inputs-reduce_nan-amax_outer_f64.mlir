func.func @amax_outer_f64(%x: !layout.tensor<67x40xf64>) -> !layout.tensor<40xf64> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<67x40xf64>
  return %r : !layout.tensor<40xf64>
}
