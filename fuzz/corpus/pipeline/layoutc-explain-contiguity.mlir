func.func @contiguity(%x: !layout.tensor<2x3x4x5xf32>, %y: !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, %z: !layout.tensor<2x1x4x5xf32>, %w: !layout.tensor<1x3x1x4xf32>) -> (!layout.tensor<2x3x4x5xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x1x4x5xf32>, !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>>, !layout.tensor<2x3x4x2xf32, strided<[60, 20, 5, 1], offset: 1>>) {
  %p = layout.permute %w [2, 1, 0, 3] : !layout.tensor<1x3x1x4xf32>
  %s = layout.narrow %x dim 3 start 1 length 2 : !layout.tensor<2x3x4x5xf32>
  return %x, %y, %z, %p, %s : !layout.tensor<2x3x4x5xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x1x4x5xf32>, !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>>, !layout.tensor<2x3x4x2xf32, strided<[60, 20, 5, 1], offset: 1>>
}
