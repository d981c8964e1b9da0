func.func @reduce_reads_view_of_buffer(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<f32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %s = layout.select %c dim 0 index 1 : !layout.tensor<4x3xf32>
  %r = layout.reduce amax %s dims [] : !layout.tensor<3xf32, strided<[1], offset: 3>>
  return %r : !layout.tensor<f32>
}
