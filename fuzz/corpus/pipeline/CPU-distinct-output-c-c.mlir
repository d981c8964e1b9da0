func.func @c(%s: !layout.tensor<2x3xf32>, %d: !layout.tensor<2x3xf32, strided<[3, 2]>>) {
  layout.copy %s, %d : !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32, strided<[3, 2]>>
  return
}
