func.func @p7_odd(%x: !layout.tensor<63x65x63x65xf32>) -> !layout.tensor<65x63x65x63xf32> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<63x65x63x65xf32>
  %c = layout.contiguous %v : !layout.tensor<65x63x65x63xf32, strided<[1, 65, 4095, 266175]>>
  return %c : !layout.tensor<65x63x65x63xf32>
}
