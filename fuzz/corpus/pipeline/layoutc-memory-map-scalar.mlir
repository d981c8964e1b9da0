func.func @scalar(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<f32, strided<[], offset: 6>> {
  %r = layout.select %x dim 0 index 1 : !layout.tensor<3x4xf32>
  %s = layout.select %r dim 0 index 2 : !layout.tensor<4xf32, strided<[1], offset: 4>>
  return %s : !layout.tensor<f32, strided<[], offset: 6>>
}
