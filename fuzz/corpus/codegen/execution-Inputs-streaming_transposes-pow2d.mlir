func.func @pow2d(%x: !layout.tensor<512x61xf32>) -> !layout.tensor<61x512xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<512x61xf32>
  %c = layout.contiguous %v : !layout.tensor<61x512xf32, strided<[1, 61]>>
  return %c : !layout.tensor<61x512xf32>
}
