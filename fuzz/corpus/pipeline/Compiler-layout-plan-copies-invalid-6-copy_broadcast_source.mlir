func.func @copy_broadcast_source(%x: !layout.tensor<4x4xf32>) {
  %a = layout.select %x dim 0 index 0 : !layout.tensor<4x4xf32>
  %b = layout.slice %x dim 0 [1 : 3 : 1] : !layout.tensor<4x4xf32>
  layout.copy %a, %b : !layout.tensor<4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return
}
