func.func @p6(%x: !layout.tensor<512x256x128xf32>) -> !layout.tensor<256x512x128xf32> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<512x256x128xf32>
  %c = layout.contiguous %v : !layout.tensor<256x512x128xf32, strided<[128, 32768, 1]>>
  return %c : !layout.tensor<256x512x128xf32>
}

func.func @p6_small(%x: !layout.tensor<32x16x128xf32>) -> !layout.tensor<16x32x128xf32> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<32x16x128xf32>
  %c = layout.contiguous %v : !layout.tensor<16x32x128xf32, strided<[128, 2048, 1]>>
  return %c : !layout.tensor<16x32x128xf32>
}

func.func @p6_odd(%x: !layout.tensor<511x255x129xf32>) -> !layout.tensor<255x511x129xf32> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<511x255x129xf32>
  %c = layout.contiguous %v : !layout.tensor<255x511x129xf32, strided<[129, 32895, 1]>>
  return %c : !layout.tensor<255x511x129xf32>
}
