func.func @seed001_as_strided(%tensor: !layout.tensor<3x4xf32>) -> (!layout.tensor<3x4xf32>, !layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>) {
  %a0 = layout.as_strided %tensor [2, 2] strides [4, 2] offset 0 : !layout.tensor<3x4xf32>
  %a1 = layout.as_strided %tensor [2, 2] strides [4, 2] offset 1 : !layout.tensor<3x4xf32>
  return %tensor, %a0, %a1 : !layout.tensor<3x4xf32>, !layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}
