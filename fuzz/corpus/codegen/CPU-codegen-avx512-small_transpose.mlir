func.func @small_transpose(%x: !layout.tensor<64x48xi32>) -> !layout.tensor<48x64xi32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x48xi32>
  %c = layout.contiguous %p : !layout.tensor<48x64xi32, strided<[1, 48]>>
  return %c : !layout.tensor<48x64xi32>
}
