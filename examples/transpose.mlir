// The seeds' first lesson: a 3x4 tensor, its transpose (a view: strides
// swapped, same storage) and the transpose made contiguous (a copy).
func.func @transpose(%t: !layout.tensor<3x4xf32>)
    -> (!layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>) {
  %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %tt : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %tt, %c : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>
}
