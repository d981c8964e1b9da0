func.func @as_strided_missing_strides(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.as_strided %x [3, 4] [4, 1] offset 0 : !layout.tensor<3x4xf32>
  return
}
