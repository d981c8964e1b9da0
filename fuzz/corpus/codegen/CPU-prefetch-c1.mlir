func.func @c1(%x: !layout.tensor<16x64x112x112xf32>) -> !layout.tensor<16x112x112x64xf16> {
  %p = layout.permute %x [0, 2, 3, 1] : !layout.tensor<16x64x112x112xf32>
  %c = layout.contiguous %p : !layout.tensor<16x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
  %h = layout.to %c f16 : !layout.tensor<16x112x112x64xf32>
  return %h : !layout.tensor<16x112x112x64xf16>
}
