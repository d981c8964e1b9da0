func.func @odd(%x: !layout.tensor<2049x2051xf32>) -> !layout.tensor<2051x2049xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2049x2051xf32>
  %c = layout.contiguous %t : !layout.tensor<2051x2049xf32, strided<[1, 2051]>>
  return %c : !layout.tensor<2051x2049xf32>
}
