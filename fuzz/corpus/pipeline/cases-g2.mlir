func.func @g2(%x: !layout.tensor<1x8192xf32>) -> !layout.tensor<8192x8192xf32> {
  %v = layout.expand %x [8192, 8192] : !layout.tensor<1x8192xf32>
  %c = layout.contiguous %v : !layout.tensor<8192x8192xf32, strided<[0, 1]>>
  return %c : !layout.tensor<8192x8192xf32>
}

func.func @g2_small(%x: !layout.tensor<1x256xf32>) -> !layout.tensor<256x256xf32> {
  %v = layout.expand %x [256, 256] : !layout.tensor<1x256xf32>
  %c = layout.contiguous %v : !layout.tensor<256x256xf32, strided<[0, 1]>>
  return %c : !layout.tensor<256x256xf32>
}

func.func @g2_odd(%x: !layout.tensor<1x8193xf32>) -> !layout.tensor<8191x8193xf32> {
  %v = layout.expand %x [8191, 8193] : !layout.tensor<1x8193xf32>
  %c = layout.contiguous %v : !layout.tensor<8191x8193xf32, strided<[0, 1]>>
  return %c : !layout.tensor<8191x8193xf32>
}

func.func @g2_quick(%x: !layout.tensor<1x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %v = layout.expand %x [4096, 4096] : !layout.tensor<1x4096xf32>
  %c = layout.contiguous %v : !layout.tensor<4096x4096xf32, strided<[0, 1]>>
  return %c : !layout.tensor<4096x4096xf32>
}
