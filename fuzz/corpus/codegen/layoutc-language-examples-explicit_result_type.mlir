func.func @explicit_result_type(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf32, strided<[1, 4]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
}
