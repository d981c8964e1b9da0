func.func @generic_result_type_mismatch(%x: !layout.tensor<3x4xf32>) {
  %0 = "layout.transpose"(%x) {dim0 = 0 : i64, dim1 = 1 : i64} : (!layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32>
  return
}
