func.func @r3_small(%x: !layout.tensor<1x64x32x32xf32>) -> !layout.tensor<1x64xf32> {
  %r = layout.reduce sum %x dims [2, 3] : !layout.tensor<1x64x32x32xf32>
  return %r : !layout.tensor<1x64xf32>
}
