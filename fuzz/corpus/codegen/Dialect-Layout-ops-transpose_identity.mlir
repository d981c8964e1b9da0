func.func @transpose_identity(%x: !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>, %s: !layout.tensor<f32>) {
  %a = layout.transpose %x 1, 1 : !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>
  %b = layout.transpose %s 0, -1 : !layout.tensor<f32>
  return
}
