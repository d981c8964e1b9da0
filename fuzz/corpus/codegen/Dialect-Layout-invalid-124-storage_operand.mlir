func.func @storage_operand(%s: !layout.storage<12xf32>) {
  %0 = layout.view %s [3, 4] : !layout.storage<12xf32>
  return
}
