func.func @c1_small(%x: !layout.tensor<1x64x32x32xf32>) -> !layout.tensor<1x32x32x64xf16> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<1x64x32x32xf32>
  %c = layout.contiguous %v : !layout.tensor<1x32x32x64xf32, strided<[65536, 32, 1, 1024]>>
  %h = layout.to %c f16 : !layout.tensor<1x32x32x64xf32>
  return %h : !layout.tensor<1x32x32x64xf16>
}
