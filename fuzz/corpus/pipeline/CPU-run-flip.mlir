func.func @flip(%x: !layout.tensor<2x10xi32>) -> !layout.tensor<2x10xi32> {
  %f = layout.flip %x [1] : !layout.tensor<2x10xi32>
  %c = layout.contiguous %f : !layout.tensor<2x10xi32, strided<[10, -1], offset: 9>>
  return %c : !layout.tensor<2x10xi32>
}
