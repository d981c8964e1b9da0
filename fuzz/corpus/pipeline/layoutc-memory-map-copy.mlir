func.func @copy(%x: !layout.tensor<2x3xf32>) -> !layout.tensor<3x2xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2x3xf32>
  %c = layout.contiguous %t : !layout.tensor<3x2xf32, strided<[1, 3]>>
  return %c : !layout.tensor<3x2xf32>
}
