func.func @view_dynamic_offset(%x: !layout.tensor<3x4xf32, strided<[4, 1], offset: ?>>) {
  %0 = layout.view %x [12] : !layout.tensor<3x4xf32, strided<[4, 1], offset: ?>>
  return
}
