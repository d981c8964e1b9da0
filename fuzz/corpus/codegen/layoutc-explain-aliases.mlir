func.func @aliases(%a: !layout.tensor<2xf32>, %b: !layout.tensor<3x4xf32>, %s: !layout.storage<12xf32>) -> (!layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>, !layout.tensor<2xf32>, !layout.tensor<3x4xf32>, !layout.tensor<4xf32>) {
  %r = layout.select %b dim 0 index 1 : !layout.tensor<3x4xf32>
  %v = layout.as_strided %s [2, 2] strides [4, 2] offset 1 : !layout.storage<12xf32>
  %c = layout.contiguous %b : !layout.tensor<3x4xf32>
  %sum = layout.reduce sum %b dims [0] : !layout.tensor<3x4xf32>
  return %r, %v, %a, %c, %sum : !layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>, !layout.tensor<2xf32>, !layout.tensor<3x4xf32>, !layout.tensor<4xf32>
}
