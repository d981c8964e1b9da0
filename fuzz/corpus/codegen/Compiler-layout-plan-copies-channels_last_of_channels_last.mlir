func.func @channels_last_of_channels_last(%z: !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>) -> !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>> {
  %c = layout.contiguous %z channels_last : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
  return %c : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
}
