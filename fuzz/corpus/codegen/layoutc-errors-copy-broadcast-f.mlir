func.func @f(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<3xf32>) {
  layout.copy %y, %x : !layout.tensor<3xf32>, !layout.tensor<3x4xf32>
  return
}
