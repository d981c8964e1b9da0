func.func @diagonal_rank1(%x: !layout.tensor<3xf32>) {
  %0 = layout.diagonal %x offset 0 dims 0, 1 : !layout.tensor<3xf32>
  return
}
