func.func @g1_odd(%x: !layout.tensor<8191x8193xf32>) -> !layout.tensor<8191x4097xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<8191x8193xf32>
  %c = layout.contiguous %v : !layout.tensor<8191x4097xf32, strided<[8193, 2]>>
  return %c : !layout.tensor<8191x4097xf32>
}
