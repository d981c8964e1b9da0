func.func @half_transpose(%x: !layout.tensor<64x64xf16>) -> !layout.tensor<64x64xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x64xf16>
  %c = layout.contiguous %p : !layout.tensor<64x64xf16, strided<[1, 64]>>
  return %c : !layout.tensor<64x64xf16>
}
