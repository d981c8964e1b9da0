func.func @clone_after_contiguous(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %d = layout.clone %c : !layout.tensor<4x3xf32>
  return %d : !layout.tensor<4x3xf32>
}
