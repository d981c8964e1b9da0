func.func @source_written_before_reader(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<3x4xf32>) -> !layout.tensor<4xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  layout.copy %y, %x : !layout.tensor<3x4xf32>, !layout.tensor<3x4xf32>
  %r = layout.reduce sum %c dims [1] : !layout.tensor<4x3xf32>
  return %r : !layout.tensor<4xf32>
}
