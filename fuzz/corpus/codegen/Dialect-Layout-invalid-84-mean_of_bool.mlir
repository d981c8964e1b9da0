func.func @mean_of_bool(%x: !layout.tensor<3x4xi1>) {
  %0 = layout.reduce mean %x dims [] : !layout.tensor<3x4xi1>
  return
}
