func.func @f(%x: !layout.tensor<3x4xf32, strided<[4, 1], offset: -1>>) {
  return
}
