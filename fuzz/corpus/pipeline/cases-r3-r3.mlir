func.func @r3(%x: !layout.tensor<64x256x32x32xf32>) -> !layout.tensor<64x256xf32> {
  %r = layout.reduce sum %x dims [2, 3] : !layout.tensor<64x256x32x32xf32>
  return %r : !layout.tensor<64x256xf32>
}
