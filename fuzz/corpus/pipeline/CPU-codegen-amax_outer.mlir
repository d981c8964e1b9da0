func.func @amax_outer(%x: !layout.tensor<64x256xf32>) -> !layout.tensor<256xf32> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<64x256xf32>
  return %r : !layout.tensor<256xf32>
}
