func.func @contiguous_dynamic(%x: !layout.tensor<?x4xf32>) {
  %0 = layout.contiguous %x : !layout.tensor<?x4xf32>
  return
}
