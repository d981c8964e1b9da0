func.func @p6_small(%x: !layout.tensor<32x16x128xf32>) -> !layout.tensor<16x32x128xf32> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<32x16x128xf32>
  %c = layout.contiguous %v : !layout.tensor<16x32x128xf32, strided<[128, 2048, 1]>>
  return %c : !layout.tensor<16x32x128xf32>
}
