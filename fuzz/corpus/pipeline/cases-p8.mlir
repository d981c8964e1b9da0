func.func @p8(%x: !layout.tensor<32x32x32x16x32xf32>) -> !layout.tensor<32x32x32x16x32xf32> {
  %v = layout.permute %x [4, 2, 0, 3, 1] : !layout.tensor<32x32x32x16x32xf32>
  %c = layout.contiguous %v : !layout.tensor<32x32x32x16x32xf32, strided<[1, 512, 524288, 32, 16384]>>
  return %c : !layout.tensor<32x32x32x16x32xf32>
}

func.func @p8_small(%x: !layout.tensor<8x8x8x8x16xf32>) -> !layout.tensor<16x8x8x8x8xf32> {
  %v = layout.permute %x [4, 2, 0, 3, 1] : !layout.tensor<8x8x8x8x16xf32>
  %c = layout.contiguous %v : !layout.tensor<16x8x8x8x8xf32, strided<[1, 128, 8192, 16, 1024]>>
  return %c : !layout.tensor<16x8x8x8x8xf32>
}

func.func @p8_odd(%x: !layout.tensor<31x33x31x17x31xf32>) -> !layout.tensor<31x31x31x17x33xf32> {
  %v = layout.permute %x [4, 2, 0, 3, 1] : !layout.tensor<31x33x31x17x31xf32>
  %c = layout.contiguous %v : !layout.tensor<31x31x31x17x33xf32, strided<[1, 527, 539121, 31, 16337]>>
  return %c : !layout.tensor<31x31x31x17x33xf32>
}
