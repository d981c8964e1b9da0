func.func @c1_quick(%x: !layout.tensor<4x64x112x112xf32>) -> !layout.tensor<4x112x112x64xf16> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<4x64x112x112xf32>
  %c = layout.contiguous %v : !layout.tensor<4x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
  %h = layout.to %c f16 : !layout.tensor<4x112x112x64xf32>
  return %h : !layout.tensor<4x112x112x64xf16>
}
