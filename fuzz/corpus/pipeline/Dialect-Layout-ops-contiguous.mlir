func.func @contiguous(%t: !layout.tensor<4x3xf32, strided<[1, 4]>>, %o: !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>, %u: !layout.tensor<1x4xf32, strided<[1, 1]>>) {
  %a = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %b = layout.contiguous %o : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  %c = layout.contiguous %u : !layout.tensor<1x4xf32, strided<[1, 1]>>
  %d = layout.contiguous %t contiguous : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return
}
