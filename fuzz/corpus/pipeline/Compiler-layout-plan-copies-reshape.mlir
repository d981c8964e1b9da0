func.func @reshape_copies(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<12xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %r = layout.reshape %t [12] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %r : !layout.tensor<12xf32>
}

func.func @flatten_copies(%w: !layout.tensor<2x3x4xf32>) -> !layout.tensor<4x4xf32> {
  %s = layout.slice %w dim 1 [1 : 3 : 1] : !layout.tensor<2x3x4xf32>
  %f = layout.flatten %s dims 0 to 1 : !layout.tensor<2x2x4xf32, strided<[12, 4, 1], offset: 4>>
  return %f : !layout.tensor<4x4xf32>
}
