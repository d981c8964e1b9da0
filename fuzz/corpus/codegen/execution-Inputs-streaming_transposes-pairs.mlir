func.func @pairs(%x: !layout.tensor<2096x2080xf32>) -> !layout.tensor<2080x2096xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2096x2080xf32>
  %c = layout.contiguous %t : !layout.tensor<2080x2096xf32, strided<[1, 2080]>>
  return %c : !layout.tensor<2080x2096xf32>
}
