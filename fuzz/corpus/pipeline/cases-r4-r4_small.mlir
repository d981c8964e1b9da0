func.func @r4_small(%x: !layout.tensor<256x256xf32>) -> !layout.tensor<256xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<256x256xf32>
  %r = layout.reduce amax %v dims [1] : !layout.tensor<256x256xf32, strided<[1, 256]>>
  return %r : !layout.tensor<256xf32>
}
