func.func @unfold_negative_size(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.unfold %x dim 1 size -1 step 1 : !layout.tensor<3x4xf32>
  return
}
