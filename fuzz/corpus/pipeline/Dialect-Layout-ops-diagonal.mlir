func.func @diagonal(%x: !layout.tensor<2x3x4xf32>, %y: !layout.tensor<3x4xf32>) {
  %a = layout.diagonal %x offset 1 dims 1, 2 : !layout.tensor<2x3x4xf32>
  %b = layout.diagonal %y offset -1 dims 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.diagonal %y offset 10 dims 0, 1 : !layout.tensor<3x4xf32>
  %d = layout.diagonal %x offset 0 dims -1, 0 : !layout.tensor<2x3x4xf32>
  return
}
