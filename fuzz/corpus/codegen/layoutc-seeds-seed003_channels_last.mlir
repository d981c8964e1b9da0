func.func @seed003_channels_last(%x: !layout.tensor<1x3x224x224xf32>) -> !layout.tensor<1x3x224x224xf32, strided<[150528, 1, 672, 3]>> {
  %x_cl = layout.contiguous %x channels_last : !layout.tensor<1x3x224x224xf32>
  return %x_cl : !layout.tensor<1x3x224x224xf32, strided<[150528, 1, 672, 3]>>
}
