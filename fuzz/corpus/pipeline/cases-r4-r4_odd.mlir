func.func @r4_odd(%x: !layout.tensor<4095x4097xf32>) -> !layout.tensor<4097xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4095x4097xf32>
  %r = layout.reduce amax %v dims [1] : !layout.tensor<4097x4095xf32, strided<[1, 4097]>>
  return %r : !layout.tensor<4097xf32>
}
