func.func @total(%x: !layout.tensor<1048576xf32>) -> !layout.tensor<f32> {
  %s = layout.reduce sum %x dims [] : !layout.tensor<1048576xf32>
  return %s : !layout.tensor<f32>
}
