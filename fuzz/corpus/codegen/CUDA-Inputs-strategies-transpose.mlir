func.func @transpose(%t: !layout.tensor<36x40xf32>) -> !layout.tensor<40x36xf32> {
  %tt = layout.transpose %t 0, 1 : !layout.tensor<36x40xf32>
  %c = layout.contiguous %tt : !layout.tensor<40x36xf32, strided<[1, 40]>>
  return %c : !layout.tensor<40x36xf32>
}
