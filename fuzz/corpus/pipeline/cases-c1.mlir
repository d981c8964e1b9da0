func.func @c1(%x: !layout.tensor<16x64x112x112xf32>) -> !layout.tensor<16x112x112x64xf16> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<16x64x112x112xf32>
  %c = layout.contiguous %v : !layout.tensor<16x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
  %h = layout.to %c f16 : !layout.tensor<16x112x112x64xf32>
  return %h : !layout.tensor<16x112x112x64xf16>
}

func.func @c1_small(%x: !layout.tensor<1x64x32x32xf32>) -> !layout.tensor<1x32x32x64xf16> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<1x64x32x32xf32>
  %c = layout.contiguous %v : !layout.tensor<1x32x32x64xf32, strided<[65536, 32, 1, 1024]>>
  %h = layout.to %c f16 : !layout.tensor<1x32x32x64xf32>
  return %h : !layout.tensor<1x32x32x64xf16>
}

func.func @c1_odd(%x: !layout.tensor<15x63x111x113xf32>) -> !layout.tensor<15x111x113x63xf16> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<15x63x111x113xf32>
  %c = layout.contiguous %v : !layout.tensor<15x111x113x63xf32, strided<[790209, 113, 1, 12543]>>
  %h = layout.to %c f16 : !layout.tensor<15x111x113x63xf32>
  return %h : !layout.tensor<15x111x113x63xf16>
}

func.func @c1_quick(%x: !layout.tensor<4x64x112x112xf32>) -> !layout.tensor<4x112x112x64xf16> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<4x64x112x112xf32>
  %c = layout.contiguous %v : !layout.tensor<4x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
  %h = layout.to %c f16 : !layout.tensor<4x112x112x64xf32>
  return %h : !layout.tensor<4x112x112x64xf16>
}
