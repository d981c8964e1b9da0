func.func @view_numel_overflow(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.view %x [4611686018427387904, 4, -1] : !layout.tensor<3x4xf32>
  return
}
