func.func @big(%x: !layout.tensor<32768x24576xf32>) -> !layout.tensor<24576x32768xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<32768x24576xf32>
  %c = layout.contiguous %t : !layout.tensor<24576x32768xf32, strided<[1, 24576]>>
  return %c : !layout.tensor<24576x32768xf32>
}
