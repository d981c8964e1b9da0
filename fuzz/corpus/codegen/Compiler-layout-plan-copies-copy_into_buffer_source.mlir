func.func @copy_into_buffer_source(%x: !layout.tensor<4x4xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x4xf32, strided<[1, 4]>>
  layout.copy %c, %x : !layout.tensor<4x4xf32>, !layout.tensor<4x4xf32>
  return
}
