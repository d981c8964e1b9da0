func.func @expand_negative_size(%x: !layout.tensor<3xf32>) {
  %0 = layout.expand %x [-2, 3] : !layout.tensor<3xf32>
  return
}
