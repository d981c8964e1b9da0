func.func @materialize_sizes_mismatch(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.materialize %x {origin = "layout.contiguous", reason = "r"} : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32>
  return
}
