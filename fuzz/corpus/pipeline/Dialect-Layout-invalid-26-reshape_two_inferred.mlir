func.func @reshape_two_inferred(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.reshape %x [-1, 2, -1] : !layout.tensor<3x4xf32>
  return
}
