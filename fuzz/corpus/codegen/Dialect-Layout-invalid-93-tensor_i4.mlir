func.func @tensor_i4(%x: !layout.tensor<2xi4>) {
  return
}
