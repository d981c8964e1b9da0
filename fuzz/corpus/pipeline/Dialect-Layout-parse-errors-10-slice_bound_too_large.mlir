func.func @slice_bound_too_large(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.slice %x dim 1 [99999999999999999999 : 2 : 1] : !layout.tensor<3x4xf32>
  return
}
