func.func @slice_strided(%x: !layout.tensor<8x3xf32, strided<[1, 8], offset: 2>>) -> !layout.tensor<2x3xf32, strided<[3, 8], offset: 3>> {
  %0 = layout.slice %x dim 0 [1 : 7 : 3] : !layout.tensor<8x3xf32, strided<[1, 8], offset: 2>>
  return %0 : !layout.tensor<2x3xf32, strided<[3, 8], offset: 3>>
}
