func.func @amax_outer(%x: !layout.tensor<67x40xf32>) -> !layout.tensor<40xf32> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<67x40xf32>
  return %r : !layout.tensor<40xf32>
}
