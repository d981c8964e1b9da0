func.func @p2(%x: !layout.tensor<16x64x112x112xf32>) -> !layout.tensor<16x112x112x64xf32> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<16x64x112x112xf32>
  %c = layout.contiguous %v : !layout.tensor<16x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
  return %c : !layout.tensor<16x112x112x64xf32>
}

func.func @p2_small(%x: !layout.tensor<1x64x32x32xf32>) -> !layout.tensor<1x32x32x64xf32> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<1x64x32x32xf32>
  %c = layout.contiguous %v : !layout.tensor<1x32x32x64xf32, strided<[65536, 32, 1, 1024]>>
  return %c : !layout.tensor<1x32x32x64xf32>
}

func.func @p2_odd(%x: !layout.tensor<15x63x111x113xf32>) -> !layout.tensor<15x111x113x63xf32> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<15x63x111x113xf32>
  %c = layout.contiguous %v : !layout.tensor<15x111x113x63xf32, strided<[790209, 113, 1, 12543]>>
  return %c : !layout.tensor<15x111x113x63xf32>
}

func.func @p2_quick(%x: !layout.tensor<4x64x112x112xf32>) -> !layout.tensor<4x112x112x64xf32> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<4x64x112x112xf32>
  %c = layout.contiguous %v : !layout.tensor<4x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
  return %c : !layout.tensor<4x112x112x64xf32>
}
