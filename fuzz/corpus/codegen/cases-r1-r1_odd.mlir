func.func @r1_odd(%x: !layout.tensor<16383x1025xf32>) -> !layout.tensor<16383xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<16383x1025xf32>
  return %r : !layout.tensor<16383xf32>
}
