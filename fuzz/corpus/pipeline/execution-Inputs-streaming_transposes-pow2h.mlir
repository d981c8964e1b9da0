func.func @pow2h(%x: !layout.tensor<61x2048xf16>) -> !layout.tensor<2048x61xf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<61x2048xf16>
  %c = layout.contiguous %v : !layout.tensor<2048x61xf16, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x61xf16>
}
