func.func @seed000_layers(%a: !layout.tensor<12xi64>) -> (!layout.tensor<3x4xi64>, !layout.tensor<4xi64, strided<[1], offset: 4>>, !layout.tensor<4x3xi64, strided<[1, 4]>>) {
  %t = layout.reshape %a [3, 4] : !layout.tensor<12xi64>
  %row = layout.select %t dim 0 index 1 : !layout.tensor<3x4xi64>
  %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xi64>
  return %t, %row, %tt : !layout.tensor<3x4xi64>, !layout.tensor<4xi64, strided<[1], offset: 4>>, !layout.tensor<4x3xi64, strided<[1, 4]>>
}
