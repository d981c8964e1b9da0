func.func @narrow_start_too_big(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.narrow %x dim 1 start 5 length 0 : !layout.tensor<3x4xf32>
  return
}
