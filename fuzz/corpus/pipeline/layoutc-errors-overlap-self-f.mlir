func.func @f(%x: !layout.tensor<4xf32>, %y: !layout.tensor<3x4xf32>) {
  %e = layout.expand %x [3, 4] : !layout.tensor<4xf32>
  layout.copy %y, %e : !layout.tensor<3x4xf32>, !layout.tensor<3x4xf32, strided<[0, 1]>>
  return
}
