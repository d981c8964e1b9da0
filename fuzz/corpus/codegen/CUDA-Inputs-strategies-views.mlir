func.func @views(%x: !layout.tensor<4x6xf32>) -> !layout.tensor<6x4xf32, strided<[1, 6]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x6xf32>
  return %t : !layout.tensor<6x4xf32, strided<[1, 6]>>
}
