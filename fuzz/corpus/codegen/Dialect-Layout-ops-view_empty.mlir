func.func @view_empty(%x: !layout.tensor<0x3xf32>) -> (!layout.tensor<3x0xf32, strided<[1, 1]>>, !layout.tensor<0x3xf32>) {
  %a = layout.view %x [3, 0] : !layout.tensor<0x3xf32>
  %b = layout.view %x [-1, 3] : !layout.tensor<0x3xf32>
  return %a, %b : !layout.tensor<3x0xf32, strided<[1, 1]>>, !layout.tensor<0x3xf32>
}
