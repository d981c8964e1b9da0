func.func @as_strided_of_as_strided(%s: !layout.storage<24xf32>) -> !layout.tensor<2x1xf32, strided<[1, 1], offset: 10>> {
  %a1 = layout.as_strided %s [3, 4] strides [4, 1] offset 6 : !layout.storage<24xf32>
  %a2 = layout.as_strided %a1 [2] strides [1] offset 10 : !layout.tensor<3x4xf32, strided<[4, 1], offset: 6>>
  %u = layout.unsqueeze %a2 dim 1 : !layout.tensor<2xf32, strided<[1], offset: 10>>
  return %u : !layout.tensor<2x1xf32, strided<[1, 1], offset: 10>>
}
