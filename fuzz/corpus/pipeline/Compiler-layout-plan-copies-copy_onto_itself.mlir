func.func @copy_onto_itself(%x: !layout.tensor<4x4xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  layout.copy %t, %t : !layout.tensor<4x4xf32, strided<[1, 4]>>, !layout.tensor<4x4xf32, strided<[1, 4]>>
  %a = layout.select %x dim 0 index 1 : !layout.tensor<4x4xf32>
  %b = layout.narrow %x dim 0 start 1 length 1 : !layout.tensor<4x4xf32>
  %b1 = layout.squeeze %b [0] : !layout.tensor<1x4xf32, strided<[4, 1], offset: 4>>
  layout.copy %a, %b1 : !layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<4xf32, strided<[1], offset: 4>>
  layout.copy %x, %x : !layout.tensor<4x4xf32>, !layout.tensor<4x4xf32>
  return
}
