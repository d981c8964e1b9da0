func.func @big_transpose(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<4096x4096xf32>
  %c = layout.contiguous %p : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x4096xf32>
}

func.func @small_transpose(%x: !layout.tensor<64x48xi32>) -> !layout.tensor<48x64xi32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x48xi32>
  %c = layout.contiguous %p : !layout.tensor<48x64xi32, strided<[1, 48]>>
  return %c : !layout.tensor<48x64xi32>
}

func.func @half_transpose(%x: !layout.tensor<64x64xf16>) -> !layout.tensor<64x64xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x64xf16>
  %c = layout.contiguous %p : !layout.tensor<64x64xf16, strided<[1, 64]>>
  return %c : !layout.tensor<64x64xf16>
}

func.func @half_lines(%x: !layout.tensor<8192x4096xf16>) -> !layout.tensor<4096x8192xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<8192x4096xf16>
  %c = layout.contiguous %p : !layout.tensor<4096x8192xf16, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x8192xf16>
}

func.func @to_f16(%x: !layout.tensor<32x64xf32>) -> !layout.tensor<64x32xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<32x64xf32>
  %t = layout.to %p f16 : !layout.tensor<64x32xf32, strided<[1, 64]>>
  %c = layout.contiguous %t : !layout.tensor<64x32xf16, strided<[1, 64]>>
  return %c : !layout.tensor<64x32xf16>
}

func.func @amax_rows(%x: !layout.tensor<256x256xf32>) -> !layout.tensor<256xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<256x256xf32>
  %r = layout.reduce amax %t dims [1] : !layout.tensor<256x256xf32, strided<[1, 256]>>
  return %r : !layout.tensor<256xf32>
}
