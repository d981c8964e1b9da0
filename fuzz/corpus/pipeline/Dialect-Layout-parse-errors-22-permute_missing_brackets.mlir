func.func @permute_missing_brackets(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.permute %x 1, 0 : !layout.tensor<3x4xf32>
  return
}
