func.func @declared_types(%x: !layout.tensor<3x4xf32>, %i: !layout.tensor<3x4xi16>) {
  %p = layout.permute %x [1, 0] : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[1, 4], offset: 0>>
  %c = layout.contiguous %p : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32, strided<[3, 1]>>
  %a, %b = layout.split %x dim 1 [2, 2] : !layout.tensor<3x4xf32> -> !layout.tensor<3x2xf32, strided<[4, 1]>>, !layout.tensor<3x2xf32, strided<[4, 1], offset: 2>>
  %r = layout.reduce sum %i dims [0] : !layout.tensor<3x4xi16> -> !layout.tensor<4xi64>
  return
}
