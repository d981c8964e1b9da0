func.func @two_readers(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<3xf32>, !layout.tensor<4x3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %r = layout.reduce sum %c dims [0] : !layout.tensor<4x3xf32>
  %d = layout.clone %c : !layout.tensor<4x3xf32>
  return %r, %d : !layout.tensor<3xf32>, !layout.tensor<4x3xf32>
}
