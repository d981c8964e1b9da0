func.func @transpose(%t: !layout.tensor<3x4xf32>)
    -> (!layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>) {
  %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %tt : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %tt, %c : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>
}

func.func @flip(%x: !layout.tensor<2x10xi32>) -> !layout.tensor<2x10xi32> {
  %f = layout.flip %x [1] : !layout.tensor<2x10xi32>
  %c = layout.contiguous %f : !layout.tensor<2x10xi32, strided<[10, -1], offset: 9>>
  return %c : !layout.tensor<2x10xi32>
}

func.func @sums(%x: !layout.tensor<2x3x4xf16>)
    -> (!layout.tensor<2x4xf16>, !layout.tensor<3xf16>) {
  %s = layout.reduce sum %x dims [1] : !layout.tensor<2x3x4xf16>
  %m = layout.reduce mean %x dims [0, 2] : !layout.tensor<2x3x4xf16>
  return %s, %m : !layout.tensor<2x4xf16>, !layout.tensor<3xf16>
}

func.func @args(%x: !layout.tensor<2x3xi64>) -> (!layout.tensor<3xi64>, !layout.tensor<i64>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2x3xi64>
  %a = layout.reduce argmax %t dims [1] : !layout.tensor<3x2xi64, strided<[1, 3]>>
  %m = layout.reduce amin %x dims [] : !layout.tensor<2x3xi64>
  return %a, %m : !layout.tensor<3xi64>, !layout.tensor<i64>
}

func.func @to_bool(%x: !layout.tensor<3xf32>) -> !layout.tensor<2x3xi1> {
  %e = layout.expand %x [2, 3] : !layout.tensor<3xf32>
  %b = layout.to %e i1 : !layout.tensor<2x3xf32, strided<[0, 1]>>
  return %b : !layout.tensor<2x3xi1>
}
