func.func @f64(%x: !layout.tensor<1449x1451xf64>) -> !layout.tensor<1451x1449xf64> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<1449x1451xf64>
  %c = layout.contiguous %t : !layout.tensor<1451x1449xf64, strided<[1, 1451]>>
  return %c : !layout.tensor<1451x1449xf64>
}
