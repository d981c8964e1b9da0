func.func @copy_src_rank_too_big(%src: !layout.tensor<2x3x4xf32>, %dst: !layout.tensor<3x4xf32>) {
  layout.copy %src, %dst : !layout.tensor<2x3x4xf32>, !layout.tensor<3x4xf32>
  return
}
