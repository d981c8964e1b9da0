func.func @g1_small(%x: !layout.tensor<256x512xf32>) -> !layout.tensor<256x256xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<256x512xf32>
  %c = layout.contiguous %v : !layout.tensor<256x256xf32, strided<[512, 2]>>
  return %c : !layout.tensor<256x256xf32>
}
