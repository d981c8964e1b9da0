func.func @tensor_index(%x: !layout.tensor<2xindex>) {
  return
}
