func.func @view_negative_size(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.view %x [-2, 6] : !layout.tensor<3x4xf32>
  return
}
