func.func @to_dynamic(%x: !layout.tensor<?x4xf32>) {
  %0 = layout.to %x f16 : !layout.tensor<?x4xf32>
  return
}
