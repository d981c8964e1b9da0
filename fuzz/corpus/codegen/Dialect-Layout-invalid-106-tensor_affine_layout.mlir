func.func @tensor_affine_layout(%x: !layout.tensor<3x4xf32, affine_map<(d0, d1) -> (d0, d1)>>) {
  return
}
