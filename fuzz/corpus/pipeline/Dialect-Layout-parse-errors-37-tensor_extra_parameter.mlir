func.func @tensor_extra_parameter(%x: !layout.tensor<3x4xf32, strided<[4, 1]>, 5>) {
  return
}
