func.func @slice_step_negative(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.slice %x dim 1 [: : -1] : !layout.tensor<3x4xf32>
  return
}
