func.func @f16_rows_in_one_set(%x: !layout.tensor<8192x4096xf16>) -> !layout.tensor<4096x8192xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<8192x4096xf16>
  %c = layout.contiguous %p : !layout.tensor<4096x8192xf16, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x8192xf16>
}
