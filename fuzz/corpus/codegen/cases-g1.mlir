func.func @g1(%x: !layout.tensor<8192x8192xf32>) -> !layout.tensor<8192x4096xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<8192x8192xf32>
  %c = layout.contiguous %v : !layout.tensor<8192x4096xf32, strided<[8192, 2]>>
  return %c : !layout.tensor<8192x4096xf32>
}

func.func @g1_small(%x: !layout.tensor<256x512xf32>) -> !layout.tensor<256x256xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<256x512xf32>
  %c = layout.contiguous %v : !layout.tensor<256x256xf32, strided<[512, 2]>>
  return %c : !layout.tensor<256x256xf32>
}

func.func @g1_odd(%x: !layout.tensor<8191x8193xf32>) -> !layout.tensor<8191x4097xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<8191x8193xf32>
  %c = layout.contiguous %v : !layout.tensor<8191x4097xf32, strided<[8193, 2]>>
  return %c : !layout.tensor<8191x4097xf32>
}

func.func @g1_quick(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x2048xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<4096x4096xf32>
  %c = layout.contiguous %v : !layout.tensor<4096x2048xf32, strided<[4096, 2]>>
  return %c : !layout.tensor<4096x2048xf32>
}
