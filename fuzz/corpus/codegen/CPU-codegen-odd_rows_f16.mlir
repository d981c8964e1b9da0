func.func @odd_rows_f16(%x: !layout.tensor<1023x255x129xf16>) -> !layout.tensor<255x1023x129xf16> {
  %p = layout.permute %x [1, 0, 2] : !layout.tensor<1023x255x129xf16>
  %c = layout.contiguous %p : !layout.tensor<255x1023x129xf16, strided<[129, 32895, 1]>>
  return %c : !layout.tensor<255x1023x129xf16>
}
