func.func @view_float_size(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.view %x [2.5, 4] : !layout.tensor<3x4xf32>
  return
}
