func.func @expand_too_few_sizes(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.expand %x [4] : !layout.tensor<3x4xf32>
  return
}
