func.func @reverse4_f64(%x: !layout.tensor<33x65x31x67xf64>) -> !layout.tensor<67x31x65x33xf64> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<33x65x31x67xf64>
  %c = layout.contiguous %v : !layout.tensor<67x31x65x33xf64, strided<[1, 67, 2077, 135005]>>
  return %c : !layout.tensor<67x31x65x33xf64>
}
