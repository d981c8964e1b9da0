func.func @nhwc(%x: !layout.tensor<8x112x112x64xf32>) -> !layout.tensor<8x64x112x112xf32> {
  %v = layout.permute %x [0, 3, 1, 2] : !layout.tensor<8x112x112x64xf32>
  %c = layout.contiguous %v : !layout.tensor<8x64x112x112xf32, strided<[802816, 1, 7168, 64]>>
  return %c : !layout.tensor<8x64x112x112xf32>
}
