func.func @f(%x: !layout.tensor<3x4xf32>) {
  %v = layout.view %x [5, -1] : !layout.tensor<3x4xf32>
  return
}
