func.func @nhwc3(%x: !layout.tensor<2x3x4x4xf32>) -> !layout.tensor<2x3x4x4xf32, strided<[48, 1, 12, 3]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<2x3x4x4xf32>
  return %c : !layout.tensor<2x3x4x4xf32, strided<[48, 1, 12, 3]>>
}
