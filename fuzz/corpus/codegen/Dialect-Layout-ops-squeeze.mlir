func.func @squeeze(%x: !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>) {
  %a = layout.squeeze %x [] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>
  %b = layout.squeeze %x [2] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>
  %c = layout.squeeze %x [1] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>
  %d = layout.squeeze %x [0, -1] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>
  return
}
