func.func @pow2_rows(%x: !layout.tensor<64x2048xf16>) -> !layout.tensor<2048x64xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x2048xf16>
  %c = layout.contiguous %p : !layout.tensor<2048x64xf16, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x64xf16>
}
