func.func @v(%x: !layout.tensor<4x4xf32>) -> !layout.tensor<4x4xf32, strided<[1, 4]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  return %t : !layout.tensor<4x4xf32, strided<[1, 4]>>
}
