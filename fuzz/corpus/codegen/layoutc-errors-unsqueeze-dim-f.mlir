func.func @f(%x: !layout.tensor<3x4xf32>) {
  %u = layout.unsqueeze %x dim 3 : !layout.tensor<3x4xf32>
  return
}
