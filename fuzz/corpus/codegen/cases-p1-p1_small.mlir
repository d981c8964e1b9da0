func.func @p1_small(%x: !layout.tensor<256x256xf32>) -> !layout.tensor<256x256xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<256x256xf32>
  %c = layout.contiguous %v : !layout.tensor<256x256xf32, strided<[1, 256]>>
  return %c : !layout.tensor<256x256xf32>
}
