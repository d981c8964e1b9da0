func.func @contiguous_of_contiguous(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32> {
  %c = layout.contiguous %x : !layout.tensor<3x4xf32>
  return %c : !layout.tensor<3x4xf32>
}
