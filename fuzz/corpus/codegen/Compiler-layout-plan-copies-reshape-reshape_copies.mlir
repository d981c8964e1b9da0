func.func @reshape_copies(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<12xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %r = layout.reshape %t [12] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %r : !layout.tensor<12xf32>
}
