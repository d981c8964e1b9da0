func.func @materialize_missing_reason(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.materialize %x {origin = "layout.contiguous"} : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32>
  return
}
