func.func @materialize_sparse_result(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.materialize %x {origin = "layout.contiguous", reason = "r"} : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[8, 1]>>
  return
}
