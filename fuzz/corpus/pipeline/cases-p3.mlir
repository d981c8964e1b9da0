func.func @p3(%x: !layout.tensor<16x112x112x64xf32>) -> !layout.tensor<16x64x112x112xf32> {
  %v = layout.permute %x [0, 3, 1, 2] : !layout.tensor<16x112x112x64xf32>
  %c = layout.contiguous %v : !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>>
  return %c : !layout.tensor<16x64x112x112xf32>
}

func.func @p3_small(%x: !layout.tensor<1x32x32x64xf32>) -> !layout.tensor<1x64x32x32xf32> {
  %v = layout.permute %x [0, 3, 1, 2] : !layout.tensor<1x32x32x64xf32>
  %c = layout.contiguous %v : !layout.tensor<1x64x32x32xf32, strided<[65536, 1, 2048, 64]>>
  return %c : !layout.tensor<1x64x32x32xf32>
}

func.func @p3_odd(%x: !layout.tensor<15x111x113x63xf32>) -> !layout.tensor<15x63x111x113xf32> {
  %v = layout.permute %x [0, 3, 1, 2] : !layout.tensor<15x111x113x63xf32>
  %c = layout.contiguous %v : !layout.tensor<15x63x111x113xf32, strided<[790209, 1, 7119, 63]>>
  return %c : !layout.tensor<15x63x111x113xf32>
}
