func.func @copy_reads_through_buffer(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<4x3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  layout.copy %c, %y : !layout.tensor<4x3xf32>, !layout.tensor<4x3xf32>
  return
}
