func.func @batched(%x: !layout.tensor<6x1025x2049xf32>) -> !layout.tensor<6x2049x1025xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<6x1025x2049xf32>
  %c = layout.contiguous %v : !layout.tensor<6x2049x1025xf32, strided<[2100225, 1, 2049]>>
  return %c : !layout.tensor<6x2049x1025xf32>
}
