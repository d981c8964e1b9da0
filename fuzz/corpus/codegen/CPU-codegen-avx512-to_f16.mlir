func.func @to_f16(%x: !layout.tensor<32x64xf32>) -> !layout.tensor<64x32xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<32x64xf32>
  %t = layout.to %p f16 : !layout.tensor<64x32xf32, strided<[1, 64]>>
  %c = layout.contiguous %t : !layout.tensor<64x32xf16, strided<[1, 64]>>
  return %c : !layout.tensor<64x32xf16>
}
