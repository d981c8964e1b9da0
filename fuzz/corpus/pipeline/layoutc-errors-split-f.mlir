func.func @f(%x: !layout.tensor<3x4xf32>) {
  %a, %b = layout.split %x dim 0 [1, 1] : !layout.tensor<3x4xf32>
  return
}
