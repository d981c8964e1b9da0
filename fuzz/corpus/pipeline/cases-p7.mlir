func.func @p7(%x: !layout.tensor<64x64x64x64xf32>) -> !layout.tensor<64x64x64x64xf32> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<64x64x64x64xf32>
  %c = layout.contiguous %v : !layout.tensor<64x64x64x64xf32, strided<[1, 64, 4096, 262144]>>
  return %c : !layout.tensor<64x64x64x64xf32>
}

func.func @p7_small(%x: !layout.tensor<16x16x16x16xf32>) -> !layout.tensor<16x16x16x16xf32> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<16x16x16x16xf32>
  %c = layout.contiguous %v : !layout.tensor<16x16x16x16xf32, strided<[1, 16, 256, 4096]>>
  return %c : !layout.tensor<16x16x16x16xf32>
}

func.func @p7_odd(%x: !layout.tensor<63x65x63x65xf32>) -> !layout.tensor<65x63x65x63xf32> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<63x65x63x65xf32>
  %c = layout.contiguous %v : !layout.tensor<65x63x65x63xf32, strided<[1, 65, 4095, 266175]>>
  return %c : !layout.tensor<65x63x65x63xf32>
}
