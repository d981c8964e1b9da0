func.func @diagonal_unfold_flip_transpose(%x: !layout.tensor<3x4x5xf32>) -> !layout.tensor<2x3x3xf32, strided<[6, 6, -20], offset: 41>> {
  %d = layout.diagonal %x offset 1 dims 1, 2 : !layout.tensor<3x4x5xf32>
  %w = layout.unfold %d dim 1 size 2 step 1 : !layout.tensor<3x4xf32, strided<[20, 6], offset: 1>>
  %f = layout.flip %w [0] : !layout.tensor<3x3x2xf32, strided<[20, 6, 6], offset: 1>>
  %t = layout.transpose %f 0, 2 : !layout.tensor<3x3x2xf32, strided<[-20, 6, 6], offset: 41>>
  return %t : !layout.tensor<2x3x3xf32, strided<[6, 6, -20], offset: 41>>
}
