func.func @to_bool(%x: !layout.tensor<3xf32>) -> !layout.tensor<2x3xi1> {
  %e = layout.expand %x [2, 3] : !layout.tensor<3xf32>
  %b = layout.to %e i1 : !layout.tensor<2x3xf32, strided<[0, 1]>>
  return %b : !layout.tensor<2x3xi1>
}
