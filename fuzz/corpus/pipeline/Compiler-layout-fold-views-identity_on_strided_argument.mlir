func.func @identity_on_strided_argument(%x: !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>) -> !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>
  %u = layout.unsqueeze %t dim 0 : !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>
  %v = layout.view %u [12] : !layout.tensor<1x3x4xf32, strided<[12, 4, 1], offset: 2>>
  %w = layout.view %v [3, 4] : !layout.tensor<12xf32, strided<[1], offset: 2>>
  %b = layout.transpose %w 0, 1 : !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>
  return %b : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>
}
