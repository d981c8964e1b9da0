func.func @doubles(%x: !layout.tensor<4096x2048xf64>) -> !layout.tensor<2048x4096xf64> {
  %p = layout.permute %x [1, 0] : !layout.tensor<4096x2048xf64>
  %c = layout.contiguous %p : !layout.tensor<2048x4096xf64, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x4096xf64>
}
