func.func @permute_dynamic_operand(%x: !layout.tensor<?x4xf32>) {
  %0 = layout.permute %x [1, 0] : !layout.tensor<?x4xf32>
  return
}
