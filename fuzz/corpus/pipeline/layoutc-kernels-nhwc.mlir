func.func @nhwc(%x: !layout.tensor<16x64x112x112xf32>, %y: !layout.tensor<16x64x112x112xf16, strided<[802816, 1, 7168, 64]>>) -> !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<16x64x112x112xf32>
  layout.copy %x, %y : !layout.tensor<16x64x112x112xf32>, !layout.tensor<16x64x112x112xf16, strided<[802816, 1, 7168, 64]>>
  return %c : !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>>
}
