func.func @g2(%x: !layout.tensor<1x8192xf32>) -> !layout.tensor<8192x8192xf32> {
  %v = layout.expand %x [8192, 8192] : !layout.tensor<1x8192xf32>
  %c = layout.contiguous %v : !layout.tensor<8192x8192xf32, strided<[0, 1]>>
  return %c : !layout.tensor<8192x8192xf32>
}
