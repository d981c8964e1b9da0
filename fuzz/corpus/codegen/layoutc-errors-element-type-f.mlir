func.func @f(%x: !layout.tensor<3x4xi4>) {
  return
}
