func.func @copy_storage_operand(%s: !layout.storage<12xf32>, %t: !layout.tensor<12xf32>) {
  layout.copy %s, %t : !layout.storage<12xf32>, !layout.tensor<12xf32>
  return
}
