func.func @unflatten(%x: !layout.tensor<2x3x4xf32>, %y: !layout.tensor<6x4xf32, strided<[1, 6]>>) {
  %a = layout.unflatten %x dim 2 [2, 2] : !layout.tensor<2x3x4xf32>
  %b = layout.unflatten %y dim 0 [2, -1] : !layout.tensor<6x4xf32, strided<[1, 6]>>
  return
}
