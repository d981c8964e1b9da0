func.func @as_strided_of_view(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %a = layout.as_strided %t [2, 2] strides [4, 2] offset 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %a : !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}
