func.func @view_of_transpose(%t: !layout.tensor<3x4xi64>) -> !layout.tensor<12xi64> {
  %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xi64>
  %v = layout.view %tt [-1] : !layout.tensor<4x3xi64, strided<[1, 4]>>
  return %v : !layout.tensor<12xi64>
}
