func.func @slice_missing_dim(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.slice %x [1 : 2 : 1] : !layout.tensor<3x4xf32>
  return
}
