func.func @reversed(%x: !layout.tensor<41x37x29x97xi32>) -> !layout.tensor<29x37x41x97xi32> {
  %v = layout.permute %x [2, 1, 0, 3] : !layout.tensor<41x37x29x97xi32>
  %c = layout.contiguous %v : !layout.tensor<29x37x41x97xi32, strided<[97, 2813, 104081, 1]>>
  return %c : !layout.tensor<29x37x41x97xi32>
}
