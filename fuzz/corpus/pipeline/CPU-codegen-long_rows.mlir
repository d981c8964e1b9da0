func.func @long_rows(%x: !layout.tensor<4x8x1024xf32>) -> !layout.tensor<8x4x1024xf32> {
  %p = layout.permute %x [1, 0, 2] : !layout.tensor<4x8x1024xf32>
  %c = layout.contiguous %p : !layout.tensor<8x4x1024xf32, strided<[1024, 8192, 1]>>
  return %c : !layout.tensor<8x4x1024xf32>
}
