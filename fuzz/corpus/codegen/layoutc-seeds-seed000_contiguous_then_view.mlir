func.func @seed000_contiguous_then_view(%t: !layout.tensor<3x4xi64>) -> !layout.tensor<12xi64> {
  %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xi64>
  %c = layout.contiguous %tt : !layout.tensor<4x3xi64, strided<[1, 4]>>
  %flat = layout.view %c [-1] : !layout.tensor<4x3xi64>
  return %flat : !layout.tensor<12xi64>
}
