func.func @to_after_clone(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xbf16> {
  %c = layout.clone %x : !layout.tensor<3x4xf32>
  %f = layout.to %c bf16 : !layout.tensor<3x4xf32>
  return %f : !layout.tensor<3x4xbf16>
}
