func.func @as_strided_i64_size(%x: !layout.tensor<3x4xf32>, %i: i64) {
  %0 = layout.as_strided %x [%i, 4] strides [4, 1] offset 0 : !layout.tensor<3x4xf32>
  return
}
