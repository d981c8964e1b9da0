func.func @p6(%x: !layout.tensor<512x256x128xf32>) -> !layout.tensor<256x512x128xf32> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<512x256x128xf32>
  %c = layout.contiguous %v : !layout.tensor<256x512x128xf32, strided<[128, 32768, 1]>>
  return %c : !layout.tensor<256x512x128xf32>
}
