func.func @pow2f(%x: !layout.tensor<37x1024xf32>) -> !layout.tensor<1024x37xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<37x1024xf32>
  %c = layout.contiguous %v : !layout.tensor<1024x37xf32, strided<[1, 1024]>>
  return %c : !layout.tensor<1024x37xf32>
}
