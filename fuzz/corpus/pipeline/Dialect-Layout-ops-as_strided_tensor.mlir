func.func @as_strided_tensor(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x2xf32, strided<[1, 3], offset: 2>> {
  %v = layout.as_strided %x [3, 2] strides [1, 3] offset 2 : !layout.tensor<3x4xf32>
  return %v : !layout.tensor<3x2xf32, strided<[1, 3], offset: 2>>
}
