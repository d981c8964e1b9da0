func.func @amax_all(%x: !layout.tensor<1x3000xf32>) -> !layout.tensor<f32> {
  %r = layout.reduce amax %x dims [] : !layout.tensor<1x3000xf32>
  return %r : !layout.tensor<f32>
}
