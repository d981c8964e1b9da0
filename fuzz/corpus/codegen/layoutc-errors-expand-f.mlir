func.func @f(%x: !layout.tensor<3x4xf32>) {
  %e = layout.expand %x [3, 5] : !layout.tensor<3x4xf32>
  return
}
