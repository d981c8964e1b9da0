func.func @slice_empty_brackets(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.slice %x dim 1 [] : !layout.tensor<3x4xf32>
  return
}
