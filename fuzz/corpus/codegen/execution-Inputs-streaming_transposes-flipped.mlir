func.func @flipped(%x: !layout.tensor<2049x2051xf32>) -> !layout.tensor<2051x2049xf32> {
  %f = layout.flip %x [0] : !layout.tensor<2049x2051xf32>
  %t = layout.transpose %f 0, 1 : !layout.tensor<2049x2051xf32, strided<[-2051, 1], offset: 4200448>>
  %c = layout.contiguous %t : !layout.tensor<2051x2049xf32, strided<[1, -2051], offset: 4200448>>
  return %c : !layout.tensor<2051x2049xf32>
}
