func.func @select(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<3xf32, strided<[4], offset: 3>>) {
  %a = layout.select %x dim 0 index 1 : !layout.tensor<3x4xf32>
  %b = layout.select %x dim 1 index -1 : !layout.tensor<3x4xf32>
  return %a, %b : !layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<3xf32, strided<[4], offset: 3>>
}
