func.func @f(%x: !layout.tensor<3x4xf32>) {
  %s = layout.select %x dim 1 index 4 : !layout.tensor<3x4xf32>
  return
}
