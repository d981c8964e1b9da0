func.func @p5(%x: !layout.tensor<64x512x512xf32>) -> !layout.tensor<64x512x512xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<64x512x512xf32>
  %c = layout.contiguous %v : !layout.tensor<64x512x512xf32, strided<[262144, 1, 512]>>
  return %c : !layout.tensor<64x512x512xf32>
}
