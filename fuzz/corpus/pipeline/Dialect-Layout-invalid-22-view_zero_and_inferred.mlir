func.func @view_zero_and_inferred(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.view %x [0, -1] : !layout.tensor<3x4xf32>
  return
}
