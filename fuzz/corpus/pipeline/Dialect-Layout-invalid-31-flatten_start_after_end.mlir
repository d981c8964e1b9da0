func.func @flatten_start_after_end(%x: !layout.tensor<2x3x4xf32>) {
  %0 = layout.flatten %x dims 2 to 1 : !layout.tensor<2x3x4xf32>
  return
}
