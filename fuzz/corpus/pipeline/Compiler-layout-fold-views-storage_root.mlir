func.func @storage_root(%s: !layout.storage<24xf32>) -> !layout.tensor<3x2x3xf32, strided<[1, 12, 4], offset: 1>> {
  %a = layout.as_strided %s [2, 3, 4] strides [12, 4, 1] offset 0 : !layout.storage<24xf32>
  %p = layout.permute %a [2, 0, 1] : !layout.tensor<2x3x4xf32>
  %sl = layout.slice %p dim 0 [1 : : 1] : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  return %sl : !layout.tensor<3x2x3xf32, strided<[1, 12, 4], offset: 1>>
}
