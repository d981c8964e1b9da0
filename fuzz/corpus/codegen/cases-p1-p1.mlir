func.func @p1(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4096x4096xf32>
  %c = layout.contiguous %v : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x4096xf32>
}
