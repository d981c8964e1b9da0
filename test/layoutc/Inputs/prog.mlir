func.func @f(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  // README.md's example: x.T is returned, and x.T.contiguous() copies.
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %t, %c : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>
}
