func.func @transpose_select(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3xf32, strided<[4], offset: 1>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %s = layout.select %t dim 0 index 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %s : !layout.tensor<3xf32, strided<[4], offset: 1>>
}
