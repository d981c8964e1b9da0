func.func @narrow(%x: !layout.tensor<2x3x4xf32>, %y: !layout.tensor<3x4xf32>) {
  %a = layout.narrow %x dim 2 start 1 length 2 : !layout.tensor<2x3x4xf32>
  %b = layout.narrow %y dim 0 start -1 length 1 : !layout.tensor<3x4xf32>
  %c = layout.narrow %y dim 1 start 4 length 0 : !layout.tensor<3x4xf32>
  return
}
