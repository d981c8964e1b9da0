func.func @seed004_nchw_nhwc(%x: !layout.tensor<10x3x32x32xf32>) -> (!layout.tensor<10x3x32x32xf32>, !layout.tensor<10x3x32x32xf32, strided<[3072, 1, 96, 3]>>, !layout.tensor<10x3x32x32xf32>) {
  %cl = layout.contiguous %x channels_last : !layout.tensor<10x3x32x32xf32>
  %back = layout.contiguous %cl : !layout.tensor<10x3x32x32xf32, strided<[3072, 1, 96, 3]>>
  return %x, %cl, %back : !layout.tensor<10x3x32x32xf32>, !layout.tensor<10x3x32x32xf32, strided<[3072, 1, 96, 3]>>, !layout.tensor<10x3x32x32xf32>
}
