func.func @view_bad_numel_static(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.view %x [5, 2] : !layout.tensor<3x4xf32>
  return
}
