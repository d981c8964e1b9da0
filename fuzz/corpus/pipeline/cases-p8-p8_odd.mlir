func.func @p8_odd(%x: !layout.tensor<31x33x31x17x31xf32>) -> !layout.tensor<31x31x31x17x33xf32> {
  %v = layout.permute %x [4, 2, 0, 3, 1] : !layout.tensor<31x33x31x17x31xf32>
  %c = layout.contiguous %v : !layout.tensor<31x31x31x17x33xf32, strided<[1, 527, 539121, 31, 16337]>>
  return %c : !layout.tensor<31x31x31x17x33xf32>
}
