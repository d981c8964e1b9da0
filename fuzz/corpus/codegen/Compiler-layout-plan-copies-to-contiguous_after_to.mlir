func.func @contiguous_after_to(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %h = layout.to %t f16 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %c = layout.contiguous %h : !layout.tensor<4x3xf16, strided<[1, 4]>>
  return %c : !layout.tensor<4x3xf16>
}
