func.func @p4(%x: !layout.tensor<256x256x256xf32>) -> !layout.tensor<256x256x256xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<256x256x256xf32>
  %c = layout.contiguous %v : !layout.tensor<256x256x256xf32, strided<[1, 256, 65536]>>
  return %c : !layout.tensor<256x256x256xf32>
}
