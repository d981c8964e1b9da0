func.func @pow2ds(%x: !layout.tensor<1024x125xf32>) -> !layout.tensor<125x1024xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<1024x125xf32>
  %c = layout.contiguous %v : !layout.tensor<125x1024xf32, strided<[1, 125]>>
  return %c : !layout.tensor<125x1024xf32>
}
