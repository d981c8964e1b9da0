func.func @inside(%x: !layout.tensor<1025x5x1031xf32>) -> !layout.tensor<1031x5x1025xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<1025x5x1031xf32>
  %c = layout.contiguous %v : !layout.tensor<1031x5x1025xf32, strided<[1, 1031, 5155]>>
  return %c : !layout.tensor<1031x5x1025xf32>
}
