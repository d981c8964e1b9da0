func.func @unfold_missing_step(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.unfold %x dim 1 size 2 : !layout.tensor<3x4xf32>
  return
}
