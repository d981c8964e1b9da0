func.func @p7_small(%x: !layout.tensor<16x16x16x16xf32>) -> !layout.tensor<16x16x16x16xf32> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<16x16x16x16xf32>
  %c = layout.contiguous %v : !layout.tensor<16x16x16x16xf32, strided<[1, 16, 256, 4096]>>
  return %c : !layout.tensor<16x16x16x16xf32>
}
