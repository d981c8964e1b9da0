func.func @movedim_missing_to(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.movedim %x 0, 1 : !layout.tensor<3x4xf32>
  return
}
