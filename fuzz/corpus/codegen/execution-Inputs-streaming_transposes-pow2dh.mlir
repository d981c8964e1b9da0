func.func @pow2dh(%x: !layout.tensor<1024x40xf16>) -> !layout.tensor<40x1024xf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<1024x40xf16>
  %c = layout.contiguous %v : !layout.tensor<40x1024xf16, strided<[1, 40]>>
  return %c : !layout.tensor<40x1024xf16>
}
