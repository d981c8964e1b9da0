func.func @pairs_inside(%x: !layout.tensor<272x128x256xf32>) -> !layout.tensor<256x128x272xf32> {
  %p = layout.permute %x [2, 1, 0] : !layout.tensor<272x128x256xf32>
  %c = layout.contiguous %p : !layout.tensor<256x128x272xf32, strided<[1, 256, 32768]>>
  return %c : !layout.tensor<256x128x272xf32>
}
