func.func @p9_odd(%x: !layout.tensor<15x17x15x17x15x17xf32>) -> !layout.tensor<17x17x17x15x15x15xf32> {
  %v = layout.permute %x [5, 3, 1, 0, 2, 4] : !layout.tensor<15x17x15x17x15x17xf32>
  %c = layout.contiguous %v : !layout.tensor<17x17x17x15x15x15xf32, strided<[1, 255, 65025, 1105425, 4335, 17]>>
  return %c : !layout.tensor<17x17x17x15x15x15xf32>
}
