func.func @copy_dynamic(%src: !layout.tensor<3x4xf32>, %dst: !layout.tensor<?x4xf32>) {
  layout.copy %src, %dst : !layout.tensor<3x4xf32>, !layout.tensor<?x4xf32>
  return
}
