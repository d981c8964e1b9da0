func.func @seed002_strides(%m: !layout.storage<12xi64>) -> (!layout.tensor<4x3xi64>, !layout.tensor<3x4xi64, strided<[1, 3]>>, !layout.tensor<3x4xi64>) {
  %a = layout.as_strided %m [4, 3] strides [3, 1] offset 0 : !layout.storage<12xi64>
  %t = layout.as_strided %m [3, 4] strides [1, 3] offset 0 : !layout.storage<12xi64>
  %c = layout.contiguous %t : !layout.tensor<3x4xi64, strided<[1, 3]>>
  return %a, %t, %c : !layout.tensor<4x3xi64>, !layout.tensor<3x4xi64, strided<[1, 3]>>, !layout.tensor<3x4xi64>
}
