func.func @as_strided_float_offset(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.as_strided %x [3, 4] strides [4, 1] offset 0.5 : !layout.tensor<3x4xf32>
  return
}
