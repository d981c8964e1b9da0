func.func @materialize_missing_result_type(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.materialize %x {origin = "a", reason = "b"} : !layout.tensor<3x4xf32>
  return
}
