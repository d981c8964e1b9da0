func.func @declared_type_offset_mismatch(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.select %x dim 0 index 2 : !layout.tensor<3x4xf32> -> !layout.tensor<4xf32, strided<[1], offset: 4>>
  return
}
