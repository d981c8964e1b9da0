func.func @columns(%x: !layout.tensor<65536x4xf32>) -> !layout.tensor<4xf32> {
  %m = layout.reduce amax %x dims [0] : !layout.tensor<65536x4xf32>
  return %m : !layout.tensor<4xf32>
}
