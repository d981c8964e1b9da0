func.func @f(%x: !layout.tensor<3x4xf32>) {
  %a = layout.as_strided %x [3, 4] strides [4, 1] offset 1 : !layout.tensor<3x4xf32>
  return
}
