func.func @pow2c(%x: !layout.tensor<64x1024xf32>, %y: !layout.tensor<1024x64xf16>) {
  %v = layout.permute %x [1, 0] : !layout.tensor<64x1024xf32>
  %h = layout.to %v f16 : !layout.tensor<1024x64xf32, strided<[1, 1024]>>
  layout.copy %h, %y : !layout.tensor<1024x64xf16, strided<[1, 1024]>>, !layout.tensor<1024x64xf16>
  return
}
