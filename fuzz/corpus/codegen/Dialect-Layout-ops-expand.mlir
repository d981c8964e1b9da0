func.func @expand(%x: !layout.tensor<1x3x4xf32>) -> (!layout.tensor<5x1x3x4xf32, strided<[0, 12, 4, 1]>>, !layout.tensor<2x3x4xf32, strided<[0, 4, 1]>>) {
  %a = layout.expand %x [5, -1, -1, -1] : !layout.tensor<1x3x4xf32>
  %b = layout.expand %x [2, 3, 4] : !layout.tensor<1x3x4xf32>
  return %a, %b : !layout.tensor<5x1x3x4xf32, strided<[0, 12, 4, 1]>>, !layout.tensor<2x3x4xf32, strided<[0, 4, 1]>>
}
