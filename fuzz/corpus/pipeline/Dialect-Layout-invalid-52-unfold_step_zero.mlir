func.func @unfold_step_zero(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.unfold %x dim 1 size 2 step 0 : !layout.tensor<3x4xf32>
  return
}
