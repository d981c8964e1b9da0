func.func @reduce_dynamic(%x: !layout.tensor<?x4xf32>) {
  %0 = layout.reduce sum %x dims [0] : !layout.tensor<?x4xf32>
  return
}
