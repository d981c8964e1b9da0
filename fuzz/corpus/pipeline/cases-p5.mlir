func.func @p5(%x: !layout.tensor<64x512x512xf32>) -> !layout.tensor<64x512x512xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<64x512x512xf32>
  %c = layout.contiguous %v : !layout.tensor<64x512x512xf32, strided<[262144, 1, 512]>>
  return %c : !layout.tensor<64x512x512xf32>
}

func.func @p5_small(%x: !layout.tensor<4x128x128xf32>) -> !layout.tensor<4x128x128xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<4x128x128xf32>
  %c = layout.contiguous %v : !layout.tensor<4x128x128xf32, strided<[16384, 1, 128]>>
  return %c : !layout.tensor<4x128x128xf32>
}

func.func @p5_odd(%x: !layout.tensor<63x511x513xf32>) -> !layout.tensor<63x513x511xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<63x511x513xf32>
  %c = layout.contiguous %v : !layout.tensor<63x513x511xf32, strided<[262143, 1, 513]>>
  return %c : !layout.tensor<63x513x511xf32>
}

func.func @p5_quick(%x: !layout.tensor<16x512x512xf32>) -> !layout.tensor<16x512x512xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<16x512x512xf32>
  %c = layout.contiguous %v : !layout.tensor<16x512x512xf32, strided<[262144, 1, 512]>>
  return %c : !layout.tensor<16x512x512xf32>
}
