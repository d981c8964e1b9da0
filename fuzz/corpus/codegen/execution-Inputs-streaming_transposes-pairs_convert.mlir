func.func @pairs_convert(%x: !layout.tensor<2x96x45056xf32>, %y: !layout.tensor<2x45056x96xf16>) {
  %p = layout.permute %x [0, 2, 1] : !layout.tensor<2x96x45056xf32>
  layout.copy %p, %y : !layout.tensor<2x45056x96xf32, strided<[4325376, 1, 45056]>>, !layout.tensor<2x45056x96xf16>
  return
}
