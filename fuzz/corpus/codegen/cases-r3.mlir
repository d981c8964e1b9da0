func.func @r3(%x: !layout.tensor<64x256x32x32xf32>) -> !layout.tensor<64x256xf32> {
  %r = layout.reduce sum %x dims [2, 3] : !layout.tensor<64x256x32x32xf32>
  return %r : !layout.tensor<64x256xf32>
}

func.func @r3_small(%x: !layout.tensor<1x64x32x32xf32>) -> !layout.tensor<1x64xf32> {
  %r = layout.reduce sum %x dims [2, 3] : !layout.tensor<1x64x32x32xf32>
  return %r : !layout.tensor<1x64xf32>
}

func.func @r3_odd(%x: !layout.tensor<63x255x31x33xf32>) -> !layout.tensor<63x255xf32> {
  %r = layout.reduce sum %x dims [2, 3] : !layout.tensor<63x255x31x33xf32>
  return %r : !layout.tensor<63x255xf32>
}
