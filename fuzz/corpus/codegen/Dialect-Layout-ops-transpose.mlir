func.func @transpose(%x: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>, !layout.tensor<2x4x3xf32, strided<[12, 1, 4]>>) {
  %a = layout.transpose %x 0, 2 : !layout.tensor<2x3x4xf32>
  %b = layout.transpose %x -1, -2 : !layout.tensor<2x3x4xf32>
  return %a, %b : !layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>, !layout.tensor<2x4x3xf32, strided<[12, 1, 4]>>
}
