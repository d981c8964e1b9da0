func.func @r(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<?x?xf32>
  return %r : !layout.tensor<?xf32>
}
