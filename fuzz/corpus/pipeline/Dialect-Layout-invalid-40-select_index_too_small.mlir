func.func @select_index_too_small(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.select %x dim -1 index -5 : !layout.tensor<3x4xf32>
  return
}
