func.func @narrow(%x: !layout.tensor<4x8x64xf32>) -> !layout.tensor<64x8x4xf32> {
  %p = layout.permute %x [2, 1, 0] : !layout.tensor<4x8x64xf32>
  %c = layout.contiguous %p : !layout.tensor<64x8x4xf32, strided<[1, 64, 512]>>
  return %c : !layout.tensor<64x8x4xf32>
}
