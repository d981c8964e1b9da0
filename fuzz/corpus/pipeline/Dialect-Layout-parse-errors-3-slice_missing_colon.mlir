func.func @slice_missing_colon(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.slice %x dim 1 [1 2] : !layout.tensor<3x4xf32>
  return
}
