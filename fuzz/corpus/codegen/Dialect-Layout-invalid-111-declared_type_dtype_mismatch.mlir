func.func @declared_type_dtype_mismatch(%x: !layout.tensor<3x4xi32>) {
  %0 = layout.reduce sum %x dims [0] : !layout.tensor<3x4xi32> -> !layout.tensor<4xi32>
  return
}
