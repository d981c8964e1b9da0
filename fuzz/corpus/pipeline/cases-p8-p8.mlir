func.func @p8(%x: !layout.tensor<32x32x32x16x32xf32>) -> !layout.tensor<32x32x32x16x32xf32> {
  %v = layout.permute %x [4, 2, 0, 3, 1] : !layout.tensor<32x32x32x16x32xf32>
  %c = layout.contiguous %v : !layout.tensor<32x32x32x16x32xf32, strided<[1, 512, 524288, 32, 16384]>>
  return %c : !layout.tensor<32x32x32x16x32xf32>
}
