func.func @p9_small(%x: !layout.tensor<8x8x8x4x4x8xf32>) -> !layout.tensor<8x4x8x8x8x4xf32> {
  %v = layout.permute %x [5, 3, 1, 0, 2, 4] : !layout.tensor<8x8x8x4x4x8xf32>
  %c = layout.contiguous %v : !layout.tensor<8x4x8x8x8x4xf32, strided<[1, 32, 1024, 8192, 128, 8]>>
  return %c : !layout.tensor<8x4x8x8x8x4xf32>
}
