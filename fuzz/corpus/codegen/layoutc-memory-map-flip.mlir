func.func @flip(%x: !layout.tensor<5xf32>) -> !layout.tensor<3xf32, strided<[-2], offset: 4>> {
  %f = layout.flip %x [0] : !layout.tensor<5xf32>
  %s = layout.slice %f dim 0 [0 : 5 : 2] : !layout.tensor<5xf32, strided<[-1], offset: 4>>
  return %s : !layout.tensor<3xf32, strided<[-2], offset: 4>>
}
