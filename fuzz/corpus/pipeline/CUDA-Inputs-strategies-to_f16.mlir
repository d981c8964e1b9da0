func.func @to_f16(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf16> {
  %h = layout.to %x f16 : !layout.tensor<3x4xf32>
  return %h : !layout.tensor<3x4xf16>
}
