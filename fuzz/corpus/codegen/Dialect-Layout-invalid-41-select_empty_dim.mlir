func.func @select_empty_dim(%x: !layout.tensor<0x4xf32>) {
  %0 = layout.select %x dim 0 index 0 : !layout.tensor<0x4xf32>
  return
}
