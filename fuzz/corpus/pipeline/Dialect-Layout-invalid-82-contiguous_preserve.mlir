func.func @contiguous_preserve(%x: !layout.tensor<4x3xf32, strided<[1, 4]>>) {
  %0 = layout.contiguous %x preserve : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return
}
