func.func @to_f8(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.to %x f8E5M2 : !layout.tensor<3x4xf32>
  return
}
