func.func @amax_split(%x: !layout.tensor<4096x264xf32>) -> !layout.tensor<264xf32> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<4096x264xf32>
  return %r : !layout.tensor<264xf32>
}
