func.func @p10(%x: !layout.tensor<8192x4096xf16>) -> !layout.tensor<4096x8192xf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<8192x4096xf16>
  %c = layout.contiguous %v : !layout.tensor<4096x8192xf16, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x8192xf16>
}

func.func @p10_small(%x: !layout.tensor<512x256xf16>) -> !layout.tensor<256x512xf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<512x256xf16>
  %c = layout.contiguous %v : !layout.tensor<256x512xf16, strided<[1, 256]>>
  return %c : !layout.tensor<256x512xf16>
}

func.func @p10_odd(%x: !layout.tensor<8191x4097xf16>) -> !layout.tensor<4097x8191xf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<8191x4097xf16>
  %c = layout.contiguous %v : !layout.tensor<4097x8191xf16, strided<[1, 4097]>>
  return %c : !layout.tensor<4097x8191xf16>
}

func.func @p10_quick(%x: !layout.tensor<4096x2048xf16>) -> !layout.tensor<2048x4096xf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4096x2048xf16>
  %c = layout.contiguous %v : !layout.tensor<2048x4096xf16, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x4096xf16>
}
