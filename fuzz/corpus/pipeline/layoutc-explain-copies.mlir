func.func @copies(%x: !layout.tensor<3x4xf32>, %v: !layout.tensor<4xf32>, %z: !layout.tensor<2x3x4x5xf32>, %y: !layout.tensor<4x3xf16>) -> (!layout.tensor<3x4xf32>, !layout.tensor<3x4xf16>, !layout.tensor<3x4xf32>, !layout.tensor<3x2xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<3x4xf32>) {
  %cx = layout.clone %x : !layout.tensor<3x4xf32>
  %hx = layout.to %x f16 : !layout.tensor<3x4xf32>
  %e = layout.expand %v [3, 4] : !layout.tensor<4xf32>
  %ce = layout.clone %e : !layout.tensor<3x4xf32, strided<[0, 1]>>
  %s = layout.slice %x dim 1 [0 : 4 : 2] : !layout.tensor<3x4xf32>
  %cs = layout.clone %s : !layout.tensor<3x2xf32, strided<[4, 2]>>
  %cl = layout.contiguous %z channels_last : !layout.tensor<2x3x4x5xf32>
  %f = layout.flip %x [0] : !layout.tensor<3x4xf32>
  %cf = layout.contiguous %f : !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  layout.copy %t, %y : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf16>
  return %cx, %hx, %ce, %cs, %cl, %cf : !layout.tensor<3x4xf32>, !layout.tensor<3x4xf16>, !layout.tensor<3x4xf32>, !layout.tensor<3x2xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<3x4xf32>
}
