func.func @p1_odd(%x: !layout.tensor<4095x4097xf32>) -> !layout.tensor<4097x4095xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4095x4097xf32>
  %c = layout.contiguous %v : !layout.tensor<4097x4095xf32, strided<[1, 4097]>>
  return %c : !layout.tensor<4097x4095xf32>
}
