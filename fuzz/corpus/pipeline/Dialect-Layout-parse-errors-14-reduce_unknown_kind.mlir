func.func @reduce_unknown_kind(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.reduce median %x dims [0] : !layout.tensor<3x4xf32>
  return
}
