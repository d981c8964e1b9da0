func.func @p8_small(%x: !layout.tensor<8x8x8x8x16xf32>) -> !layout.tensor<16x8x8x8x8xf32> {
  %v = layout.permute %x [4, 2, 0, 3, 1] : !layout.tensor<8x8x8x8x16xf32>
  %c = layout.contiguous %v : !layout.tensor<16x8x8x8x8xf32, strided<[1, 128, 8192, 16, 1024]>>
  return %c : !layout.tensor<16x8x8x8x8xf32>
}
