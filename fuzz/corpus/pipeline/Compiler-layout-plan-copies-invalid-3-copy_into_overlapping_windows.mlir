func.func @copy_into_overlapping_windows(%x: !layout.tensor<5xf32>, %y: !layout.tensor<4x2xf32>) {
  %w = layout.unfold %x dim 0 size 2 step 1 : !layout.tensor<5xf32>
  layout.copy %y, %w : !layout.tensor<4x2xf32>, !layout.tensor<4x2xf32, strided<[1, 1]>>
  return
}
