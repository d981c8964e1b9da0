func.func @copy_between_overlapping_rows(%x: !layout.tensor<4x4xf32>) {
  %a = layout.slice %x dim 0 [0 : 2 : 1] : !layout.tensor<4x4xf32>
  %b = layout.slice %x dim 0 [1 : 3 : 1] : !layout.tensor<4x4xf32>
  layout.copy %a, %b : !layout.tensor<2x4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return
}
