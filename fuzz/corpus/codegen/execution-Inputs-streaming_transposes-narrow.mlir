func.func @narrow(%x: !layout.tensor<255x257x255xf32>) -> !layout.tensor<255x257x255xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<255x257x255xf32>
  %c = layout.contiguous %v : !layout.tensor<255x257x255xf32, strided<[1, 255, 65535]>>
  return %c : !layout.tensor<255x257x255xf32>
}
