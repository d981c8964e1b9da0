func.func @movedim(%x: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>) {
  %a = layout.movedim %x 0 to 2 : !layout.tensor<2x3x4xf32>
  %b = layout.movedim %x -1 to 0 : !layout.tensor<2x3x4xf32>
  return %a, %b : !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
}
