func.func @p5_small(%x: !layout.tensor<4x128x128xf32>) -> !layout.tensor<4x128x128xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<4x128x128xf32>
  %c = layout.contiguous %v : !layout.tensor<4x128x128xf32, strided<[16384, 1, 128]>>
  return %c : !layout.tensor<4x128x128xf32>
}
