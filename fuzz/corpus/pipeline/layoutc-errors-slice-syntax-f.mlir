func.func @f(%x: !layout.tensor<3x4xf32>) {
  %s = layout.slice %x dim 1 [1 : 2 :] : !layout.tensor<3x4xf32>
  return
}
