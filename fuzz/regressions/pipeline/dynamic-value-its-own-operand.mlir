func.func @contiguous_dynamic(%x: !layout.tensor<?x5xf32>) {
  %0 = layout.contiguous %0 : !layout.tensor<?x4xf32>
  return
}
