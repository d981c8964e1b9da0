func.func @tensor_missing_element_type(%x: !layout.tensor<3x4>) {
  return
}
