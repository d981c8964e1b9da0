func.func @f(%x: !layout.tensor<2x2xf32, strided<[9223372036854775807, 1]>>) {
  return
}
