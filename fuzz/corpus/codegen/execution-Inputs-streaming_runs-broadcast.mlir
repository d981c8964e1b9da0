func.func @broadcast(%x: !layout.tensor<1x300xf32>) -> !layout.tensor<16384x300xf32> {
  %e = layout.expand %x [16384, -1] : !layout.tensor<1x300xf32>
  %c = layout.contiguous %e : !layout.tensor<16384x300xf32, strided<[0, 1]>>
  return %c : !layout.tensor<16384x300xf32>
}
