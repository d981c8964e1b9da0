func.func @split_dynamic_stride(%x: !layout.tensor<3x4xf32, strided<[?, 1]>>) {
  %0:2 = layout.split %x dim 0 [1, 2] : !layout.tensor<3x4xf32, strided<[?, 1]>>
  return
}
