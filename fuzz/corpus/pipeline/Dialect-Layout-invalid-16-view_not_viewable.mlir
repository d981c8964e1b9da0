func.func @view_not_viewable(%x: !layout.tensor<4x3xf32, strided<[1, 4]>>) {
  %0 = layout.view %x [12] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return
}
