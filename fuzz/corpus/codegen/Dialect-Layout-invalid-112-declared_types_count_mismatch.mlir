func.func @declared_types_count_mismatch(%x: !layout.tensor<3x4xf32>) {
  %0:2 = layout.split %x dim 1 [2, 2] : !layout.tensor<3x4xf32> -> !layout.tensor<3x2xf32, strided<[4, 1]>>
  return
}
