func.func @p3_odd(%x: !layout.tensor<15x111x113x63xf32>) -> !layout.tensor<15x63x111x113xf32> {
  %v = layout.permute %x [0, 3, 1, 2] : !layout.tensor<15x111x113x63xf32>
  %c = layout.contiguous %v : !layout.tensor<15x63x111x113xf32, strided<[790209, 1, 7119, 63]>>
  return %c : !layout.tensor<15x63x111x113xf32>
}
