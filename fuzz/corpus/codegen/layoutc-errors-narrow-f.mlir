func.func @f(%x: !layout.tensor<3x4xf32>) {
  %n = layout.narrow %x dim 1 start 3 length 2 : !layout.tensor<3x4xf32>
  return
}
