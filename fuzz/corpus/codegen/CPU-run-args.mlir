func.func @args(%x: !layout.tensor<2x3xi64>) -> (!layout.tensor<3xi64>, !layout.tensor<i64>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2x3xi64>
  %a = layout.reduce argmax %t dims [1] : !layout.tensor<3x2xi64, strided<[1, 3]>>
  %m = layout.reduce amin %x dims [] : !layout.tensor<2x3xi64>
  return %a, %m : !layout.tensor<3xi64>, !layout.tensor<i64>
}
