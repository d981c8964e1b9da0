func.func @r3_odd(%x: !layout.tensor<63x255x31x33xf32>) -> !layout.tensor<63x255xf32> {
  %r = layout.reduce sum %x dims [2, 3] : !layout.tensor<63x255x31x33xf32>
  return %r : !layout.tensor<63x255xf32>
}
