func.func @g2_small(%x: !layout.tensor<1x256xf32>) -> !layout.tensor<256x256xf32> {
  %v = layout.expand %x [256, 256] : !layout.tensor<1x256xf32>
  %c = layout.contiguous %v : !layout.tensor<256x256xf32, strided<[0, 1]>>
  return %c : !layout.tensor<256x256xf32>
}
