func.func @odd_edges(%x: !layout.tensor<9x5x13xf32>) -> !layout.tensor<13x5x9xf32> {
  %p = layout.permute %x [2, 1, 0] : !layout.tensor<9x5x13xf32>
  %c = layout.contiguous %p : !layout.tensor<13x5x9xf32, strided<[1, 13, 65]>>
  return %c : !layout.tensor<13x5x9xf32>
}
