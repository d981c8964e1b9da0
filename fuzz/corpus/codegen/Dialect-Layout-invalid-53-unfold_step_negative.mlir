func.func @unfold_step_negative(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.unfold %x dim 1 size 2 step -2 : !layout.tensor<3x4xf32>
  return
}
