func.func @f(%x: !layout.tensor<4611686018427387904x4611686018427387904xf32>) {
  return
}
