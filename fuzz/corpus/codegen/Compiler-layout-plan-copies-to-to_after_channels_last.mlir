func.func @to_after_channels_last(%x: !layout.tensor<2x3x4x5xf32>) -> !layout.tensor<2x3x4x5xf16, strided<[60, 1, 15, 3]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<2x3x4x5xf32>
  %f = layout.to %c f16 : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
  return %f : !layout.tensor<2x3x4x5xf16, strided<[60, 1, 15, 3]>>
}
