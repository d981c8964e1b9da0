func.func @f(%x: !layout.tensor<3x4xf32>) {
  %w = layout.unfold %x dim 1 size 5 step 1 : !layout.tensor<3x4xf32>
  return
}
