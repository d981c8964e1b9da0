func.func @odd_edges_f16(%x: !layout.tensor<9x5x13xf16>) -> !layout.tensor<13x5x9xf16> {
  %p = layout.permute %x [2, 1, 0] : !layout.tensor<9x5x13xf16>
  %c = layout.contiguous %p : !layout.tensor<13x5x9xf16, strided<[1, 13, 65]>>
  return %c : !layout.tensor<13x5x9xf16>
}
