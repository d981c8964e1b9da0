func.func @nhwc24h(%x: !layout.tensor<4x24x200003xf16>) -> !layout.tensor<4x200003x24xf16> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<4x24x200003xf16>
  %c = layout.contiguous %v : !layout.tensor<4x200003x24xf16, strided<[4800072, 1, 200003]>>
  return %c : !layout.tensor<4x200003x24xf16>
}
