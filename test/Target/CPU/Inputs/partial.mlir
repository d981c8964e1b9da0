func.func @partial(%x: !layout.tensor<4x4xf32>) -> !layout.tensor<2x4xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x4xf32, strided<[1, 4]>>
  %s = layout.slice %c dim 0 [0 : 2] : !layout.tensor<4x4xf32>
  return %s : !layout.tensor<2x4xf32>
}
