func.func @p3_small(%x: !layout.tensor<1x32x32x64xf32>) -> !layout.tensor<1x64x32x32xf32> {
  %v = layout.permute %x [0, 3, 1, 2] : !layout.tensor<1x32x32x64xf32>
  %c = layout.contiguous %v : !layout.tensor<1x64x32x32xf32, strided<[65536, 1, 2048, 64]>>
  return %c : !layout.tensor<1x64x32x32xf32>
}
