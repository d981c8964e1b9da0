func.func @nhwc(%x: !layout.tensor<2x40x5x8xf32>, %y: !layout.tensor<2x5x8x40xbf16>) {
  %p = layout.permute %x [0, 2, 3, 1] : !layout.tensor<2x40x5x8xf32>
  layout.copy %p, %y : !layout.tensor<2x5x8x40xf32, strided<[1600, 8, 1, 40]>>, !layout.tensor<2x5x8x40xbf16>
  return
}
