func.func @r4(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4096x4096xf32>
  %r = layout.reduce amax %v dims [1] : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %r : !layout.tensor<4096xf32>
}

func.func @r4_small(%x: !layout.tensor<256x256xf32>) -> !layout.tensor<256xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<256x256xf32>
  %r = layout.reduce amax %v dims [1] : !layout.tensor<256x256xf32, strided<[1, 256]>>
  return %r : !layout.tensor<256xf32>
}

func.func @r4_odd(%x: !layout.tensor<4095x4097xf32>) -> !layout.tensor<4097xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4095x4097xf32>
  %r = layout.reduce amax %v dims [1] : !layout.tensor<4097x4095xf32, strided<[1, 4097]>>
  return %r : !layout.tensor<4097xf32>
}
