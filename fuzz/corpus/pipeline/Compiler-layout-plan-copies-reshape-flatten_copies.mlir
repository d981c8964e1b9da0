func.func @flatten_copies(%w: !layout.tensor<2x3x4xf32>) -> !layout.tensor<4x4xf32> {
  %s = layout.slice %w dim 1 [1 : 3 : 1] : !layout.tensor<2x3x4xf32>
  %f = layout.flatten %s dims 0 to 1 : !layout.tensor<2x2x4xf32, strided<[12, 4, 1], offset: 4>>
  return %f : !layout.tensor<4x4xf32>
}
