func.func @contiguous_of_size1_permute(%y: !layout.tensor<1x3x1x4xf32>) -> !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>> {
  %p = layout.permute %y [2, 1, 0, 3] : !layout.tensor<1x3x1x4xf32>
  %c = layout.contiguous %p : !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>>
  return %c : !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>>
}
