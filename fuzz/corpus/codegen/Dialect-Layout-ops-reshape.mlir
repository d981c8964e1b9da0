func.func @reshape(%x: !layout.tensor<4x6xf32, strided<[1, 4]>>, %y: !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>) {
  %a = layout.reshape %x [6, 4] : !layout.tensor<4x6xf32, strided<[1, 4]>>
  %b = layout.reshape %y [-1] : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return
}
