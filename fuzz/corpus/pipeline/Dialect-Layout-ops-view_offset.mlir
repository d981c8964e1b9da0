func.func @view_offset(%x: !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>) -> !layout.tensor<8xf32, strided<[1], offset: 4>> {
  %v = layout.view %x [-1] : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return %v : !layout.tensor<8xf32, strided<[1], offset: 4>>
}
