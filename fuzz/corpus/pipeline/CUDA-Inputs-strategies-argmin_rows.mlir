func.func @argmin_rows(%x: !layout.tensor<4x100xbf16>) -> !layout.tensor<4xi64> {
  %a = layout.reduce argmin %x dims [1] : !layout.tensor<4x100xbf16>
  return %a : !layout.tensor<4xi64>
}
