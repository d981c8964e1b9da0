func.func @f(%x: !layout.tensor<3x4xf32, strided<[1]>>) {
  return
}
