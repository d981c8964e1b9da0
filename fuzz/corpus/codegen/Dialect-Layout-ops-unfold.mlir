func.func @unfold(%x: !layout.tensor<2x3x4xf32>, %y: !layout.tensor<3x8xf32>, %s: !layout.tensor<f32>) {
  %a = layout.unfold %x dim 2 size 2 step 1 : !layout.tensor<2x3x4xf32>
  %b = layout.unfold %y dim 1 size 3 step 2 : !layout.tensor<3x8xf32>
  %c = layout.unfold %s dim 0 size 1 step 1 : !layout.tensor<f32>
  return
}
