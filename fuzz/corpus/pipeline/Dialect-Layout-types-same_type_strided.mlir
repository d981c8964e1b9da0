func.func @same_type_strided(%x: !layout.tensor<4x3xf32, strided<[1, 4], offset: 0>>) -> !layout.tensor<4x3xf32, strided<[1, 4]>> {
  return %x : !layout.tensor<4x3xf32, strided<[1, 4]>>
}
