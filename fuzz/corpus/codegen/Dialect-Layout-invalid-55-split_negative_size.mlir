func.func @split_negative_size(%x: !layout.tensor<3x4xf32>) {
  %0:2 = layout.split %x dim 1 [-1, 5] : !layout.tensor<3x4xf32>
  return
}
