func.func @p1(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4096x4096xf32>
  %c = layout.contiguous %v : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x4096xf32>
}

func.func @p1_small(%x: !layout.tensor<256x256xf32>) -> !layout.tensor<256x256xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<256x256xf32>
  %c = layout.contiguous %v : !layout.tensor<256x256xf32, strided<[1, 256]>>
  return %c : !layout.tensor<256x256xf32>
}

func.func @p1_odd(%x: !layout.tensor<4095x4097xf32>) -> !layout.tensor<4097x4095xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4095x4097xf32>
  %c = layout.contiguous %v : !layout.tensor<4097x4095xf32, strided<[1, 4097]>>
  return %c : !layout.tensor<4097x4095xf32>
}

func.func @p1_quick(%x: !layout.tensor<2048x2048xf32>) -> !layout.tensor<2048x2048xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<2048x2048xf32>
  %c = layout.contiguous %v : !layout.tensor<2048x2048xf32, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x2048xf32>
}
