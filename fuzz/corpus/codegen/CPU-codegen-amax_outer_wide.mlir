func.func @amax_outer_wide(%x: !layout.tensor<64x4096xf32>) -> !layout.tensor<4096xf32> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<64x4096xf32>
  return %r : !layout.tensor<4096xf32>
}
