func.func @transpose(%x: !layout.tensor<64x64xf32>) -> !layout.tensor<64x64xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x64xf32>
  %c = layout.contiguous %p : !layout.tensor<64x64xf32, strided<[1, 64]>>
  return %c : !layout.tensor<64x64xf32>
}
