func.func @view_two_inferred(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.view %x [-1, -1] : !layout.tensor<3x4xf32>
  return
}
