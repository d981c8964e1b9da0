func.func @p7(%x: !layout.tensor<64x64x64x64xf32>) -> !layout.tensor<64x64x64x64xf32> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<64x64x64x64xf32>
  %c = layout.contiguous %v : !layout.tensor<64x64x64x64xf32, strided<[1, 64, 4096, 262144]>>
  return %c : !layout.tensor<64x64x64x64xf32>
}
