func.func @generic_inference_error(%x: !layout.tensor<3x4xf32>) {
  %0 = "layout.transpose"(%x) {dim0 = 0 : i64, dim1 = 5 : i64} : (!layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32>
  return
}
