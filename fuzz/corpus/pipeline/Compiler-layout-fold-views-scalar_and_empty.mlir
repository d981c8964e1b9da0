func.func @scalar_and_empty(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<f32, strided<[], offset: 11>>, !layout.tensor<1xf32, strided<[1], offset: 11>>, !layout.tensor<4x0xf32, strided<[1, 4], offset: 8>>) {
  %r = layout.select %x dim 0 index 2 : !layout.tensor<3x4xf32>
  %s = layout.select %r dim 0 index -1 : !layout.tensor<4xf32, strided<[1], offset: 8>>
  %u = layout.unsqueeze %s dim 0 : !layout.tensor<f32, strided<[], offset: 11>>
  %e = layout.slice %x dim 0 [2 : 2 : 1] : !layout.tensor<3x4xf32>
  %et = layout.transpose %e 0, 1 : !layout.tensor<0x4xf32, strided<[4, 1], offset: 8>>
  return %s, %u, %et : !layout.tensor<f32, strided<[], offset: 11>>, !layout.tensor<1xf32, strided<[1], offset: 11>>, !layout.tensor<4x0xf32, strided<[1, 4], offset: 8>>
}
