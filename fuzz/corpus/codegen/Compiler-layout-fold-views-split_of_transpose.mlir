func.func @split_of_transpose(%x: !layout.tensor<5x4xf32>) -> (!layout.tensor<4x2xf32, strided<[1, 4]>>, !layout.tensor<3xf32, strided<[4], offset: 11>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<5x4xf32>
  %a, %b = layout.split %t dim 1 [2, 3] : !layout.tensor<4x5xf32, strided<[1, 4]>>
  %r = layout.select %b dim 0 index 3 : !layout.tensor<4x3xf32, strided<[1, 4], offset: 8>>
  return %a, %r : !layout.tensor<4x2xf32, strided<[1, 4]>>, !layout.tensor<3xf32, strided<[4], offset: 11>>
}
