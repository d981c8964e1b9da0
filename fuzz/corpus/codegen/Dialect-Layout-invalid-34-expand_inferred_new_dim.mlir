func.func @expand_inferred_new_dim(%x: !layout.tensor<3xf32>) {
  %0 = layout.expand %x [-1, 3] : !layout.tensor<3xf32>
  return
}
