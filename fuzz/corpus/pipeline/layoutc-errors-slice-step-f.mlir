func.func @f(%x: !layout.tensor<3x4xf32>) {
  %s = layout.slice %x dim 1 [0 : 4 : 0] : !layout.tensor<3x4xf32>
  return
}
