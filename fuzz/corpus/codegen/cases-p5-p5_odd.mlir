func.func @p5_odd(%x: !layout.tensor<63x511x513xf32>) -> !layout.tensor<63x513x511xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<63x511x513xf32>
  %c = layout.contiguous %v : !layout.tensor<63x513x511xf32, strided<[262143, 1, 513]>>
  return %c : !layout.tensor<63x513x511xf32>
}
