func.func @to_missing_dtype(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.to %x : !layout.tensor<3x4xf32>
  return
}
