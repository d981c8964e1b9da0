func.func @g1(%x: !layout.tensor<8192x8192xf32>) -> !layout.tensor<8192x4096xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<8192x8192xf32>
  %c = layout.contiguous %v : !layout.tensor<8192x4096xf32, strided<[8192, 2]>>
  return %c : !layout.tensor<8192x4096xf32>
}
