func.func @written_buffer(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<4x3xf32>) -> !layout.tensor<4x3xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  layout.copy %y, %c : !layout.tensor<4x3xf32>, !layout.tensor<4x3xf32>
  %d = layout.clone %c : !layout.tensor<4x3xf32>
  return %d : !layout.tensor<4x3xf32>
}
