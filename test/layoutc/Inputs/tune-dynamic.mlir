func.func @dyn(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?x?xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<?x?xf32> -> !layout.tensor<?x?xf32, strided<[1, ?]>>
  %c = layout.contiguous %p : !layout.tensor<?x?xf32, strided<[1, ?]>> -> !layout.tensor<?x?xf32>
  return %c : !layout.tensor<?x?xf32>
}
