func.func @view_noncontiguous(%x: !layout.tensor<4x3xf32, strided<[1, 4]>>) -> !layout.tensor<2x2x3xf32, strided<[2, 1, 4]>> {
  %v = layout.view %x [2, 2, 3] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %v : !layout.tensor<2x2x3xf32, strided<[2, 1, 4]>>
}
