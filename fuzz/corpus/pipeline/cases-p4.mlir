func.func @p4(%x: !layout.tensor<256x256x256xf32>) -> !layout.tensor<256x256x256xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<256x256x256xf32>
  %c = layout.contiguous %v : !layout.tensor<256x256x256xf32, strided<[1, 256, 65536]>>
  return %c : !layout.tensor<256x256x256xf32>
}

func.func @p4_small(%x: !layout.tensor<40x40x40xf32>) -> !layout.tensor<40x40x40xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<40x40x40xf32>
  %c = layout.contiguous %v : !layout.tensor<40x40x40xf32, strided<[1, 40, 1600]>>
  return %c : !layout.tensor<40x40x40xf32>
}

func.func @p4_odd(%x: !layout.tensor<255x257x255xf32>) -> !layout.tensor<255x257x255xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<255x257x255xf32>
  %c = layout.contiguous %v : !layout.tensor<255x257x255xf32, strided<[1, 255, 65535]>>
  return %c : !layout.tensor<255x257x255xf32>
}
