func.func @pow2db(%x: !layout.tensor<6x128x125xf32>) -> !layout.tensor<6x125x128xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<6x128x125xf32>
  %c = layout.contiguous %v : !layout.tensor<6x125x128xf32, strided<[16000, 1, 125]>>
  return %c : !layout.tensor<6x125x128xf32>
}
