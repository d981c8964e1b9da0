func.func @p9(%x: !layout.tensor<16x16x16x16x16x16xf32>) -> !layout.tensor<16x16x16x16x16x16xf32> {
  %v = layout.permute %x [5, 3, 1, 0, 2, 4] : !layout.tensor<16x16x16x16x16x16xf32>
  %c = layout.contiguous %v : !layout.tensor<16x16x16x16x16x16xf32, strided<[1, 256, 65536, 1048576, 4096, 16]>>
  return %c : !layout.tensor<16x16x16x16x16x16xf32>
}

func.func @p9_small(%x: !layout.tensor<8x8x8x4x4x8xf32>) -> !layout.tensor<8x4x8x8x8x4xf32> {
  %v = layout.permute %x [5, 3, 1, 0, 2, 4] : !layout.tensor<8x8x8x4x4x8xf32>
  %c = layout.contiguous %v : !layout.tensor<8x4x8x8x8x4xf32, strided<[1, 32, 1024, 8192, 128, 8]>>
  return %c : !layout.tensor<8x4x8x8x8x4xf32>
}

func.func @p9_odd(%x: !layout.tensor<15x17x15x17x15x17xf32>) -> !layout.tensor<17x17x17x15x15x15xf32> {
  %v = layout.permute %x [5, 3, 1, 0, 2, 4] : !layout.tensor<15x17x15x17x15x17xf32>
  %c = layout.contiguous %v : !layout.tensor<17x17x17x15x15x15xf32, strided<[1, 255, 65025, 1105425, 4335, 17]>>
  return %c : !layout.tensor<17x17x17x15x15x15xf32>
}
