func.func @f(%x: !layout.tensor<4x4xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  layout.copy %t, %x : !layout.tensor<4x4xf32, strided<[1, 4]>>, !layout.tensor<4x4xf32>
  return
}
