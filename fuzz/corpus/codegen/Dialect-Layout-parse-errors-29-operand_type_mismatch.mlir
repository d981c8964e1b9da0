func.func @operand_type_mismatch(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.transpose %x 0, 1 : !layout.storage<12xf32>
  return
}
