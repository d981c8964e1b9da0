func.func @to_after_contiguous(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %h = layout.to %c f16 : !layout.tensor<4x3xf32>
  return %h : !layout.tensor<4x3xf16>
}
