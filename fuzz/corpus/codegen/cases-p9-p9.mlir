func.func @p9(%x: !layout.tensor<16x16x16x16x16x16xf32>) -> !layout.tensor<16x16x16x16x16x16xf32> {
  %v = layout.permute %x [5, 3, 1, 0, 2, 4] : !layout.tensor<16x16x16x16x16x16xf32>
  %c = layout.contiguous %v : !layout.tensor<16x16x16x16x16x16xf32, strided<[1, 256, 65536, 1048576, 4096, 16]>>
  return %c : !layout.tensor<16x16x16x16x16x16xf32>
}
