func.func @f(%x: !layout.tensor<3x4xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %v = layout.view %t [-1] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return
}
