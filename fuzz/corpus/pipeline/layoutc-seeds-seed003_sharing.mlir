func.func @seed003_sharing(%a: !layout.tensor<4xi64>, %x: !layout.tensor<2x2xf32>) -> (!layout.tensor<2x2xi64>, !layout.tensor<4xi64>, !layout.tensor<2x2xf32, strided<[1, 2]>>) {
  %b = layout.view %a [2, 2] : !layout.tensor<4xi64>
  %c = layout.clone %a : !layout.tensor<4xi64>
  %x_T = layout.transpose %x 0, 1 : !layout.tensor<2x2xf32>
  return %b, %c, %x_T : !layout.tensor<2x2xi64>, !layout.tensor<4xi64>, !layout.tensor<2x2xf32, strided<[1, 2]>>
}
