func.func @no_results(%x: !layout.tensor<3x4xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  return
}
