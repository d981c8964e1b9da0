func.func @r2_odd(%x: !layout.tensor<16383x1025xf32>) -> !layout.tensor<1025xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<16383x1025xf32>
  return %r : !layout.tensor<1025xf32>
}
