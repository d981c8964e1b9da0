func.func @f(%x: !layout.tensor<3x4xi32>) {
  %m = layout.reduce mean %x dims [] : !layout.tensor<3x4xi32>
  return
}
