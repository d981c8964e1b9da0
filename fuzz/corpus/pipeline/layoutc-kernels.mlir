func.func @transpose(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4096x4096xf32>
  %c = layout.contiguous %t : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x4096xf32>
}

func.func @transpose_odd(%x: !layout.tensor<4095x4097xf32>) -> !layout.tensor<4097x4095xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4095x4097xf32>
  %c = layout.contiguous %t : !layout.tensor<4097x4095xf32, strided<[1, 4097]>>
  return %c : !layout.tensor<4097x4095xf32>
}

func.func @reverse_odd(%x: !layout.tensor<255x257x255xf32>) -> !layout.tensor<255x257x255xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<255x257x255xf32>
  %c = layout.contiguous %v : !layout.tensor<255x257x255xf32, strided<[1, 255, 65535]>>
  return %c : !layout.tensor<255x257x255xf32>
}

func.func @nhwc_bytes(%x: !layout.tensor<16x3x1024x1024xi8>) -> !layout.tensor<16x3x1024x1024xi8, strided<[3145728, 1, 3072, 3]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<16x3x1024x1024xi8>
  return %c : !layout.tensor<16x3x1024x1024xi8, strided<[3145728, 1, 3072, 3]>>
}

func.func @nhwc(%x: !layout.tensor<16x64x112x112xf32>, %y: !layout.tensor<16x64x112x112xf16, strided<[802816, 1, 7168, 64]>>) -> !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<16x64x112x112xf32>
  layout.copy %x, %y : !layout.tensor<16x64x112x112xf32>, !layout.tensor<16x64x112x112xf16, strided<[802816, 1, 7168, 64]>>
  return %c : !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>>
}

func.func @gather_and_broadcast(%x: !layout.tensor<8192x8192xf32>, %r: !layout.tensor<1x8192xf32>, %z: !layout.tensor<3x4xf32>) -> (!layout.tensor<8192x4096xf32>, !layout.tensor<8192x8192xf32>, !layout.tensor<3x4xf32>) {
  %s = layout.slice %x dim 1 [0 : 8192 : 2] : !layout.tensor<8192x8192xf32>
  %g = layout.clone %s : !layout.tensor<8192x4096xf32, strided<[8192, 2]>>
  %e = layout.expand %r [8192, 8192] : !layout.tensor<1x8192xf32>
  %b = layout.clone %e : !layout.tensor<8192x8192xf32, strided<[0, 1]>>
  %f = layout.flip %z [0, 1] : !layout.tensor<3x4xf32>
  %c = layout.contiguous %f : !layout.tensor<3x4xf32, strided<[-4, -1], offset: 11>>
  return %g, %b, %c : !layout.tensor<8192x4096xf32>, !layout.tensor<8192x8192xf32>, !layout.tensor<3x4xf32>
}

func.func @reductions(%x: !layout.tensor<16384x1024xf32>, %y: !layout.tensor<4096x4096xf32>, %h: !layout.tensor<8192x8192xf16>, %i: !layout.tensor<8xi32>) -> (!layout.tensor<16384xf32>, !layout.tensor<1024xf32>, !layout.tensor<4096xf32>, !layout.tensor<f16>, !layout.tensor<i64>) {
  %t = layout.transpose %y 0, 1 : !layout.tensor<4096x4096xf32>
  %r1 = layout.reduce sum %x dims [1] : !layout.tensor<16384x1024xf32>
  %r2 = layout.reduce sum %x dims [0] : !layout.tensor<16384x1024xf32>
  %r4 = layout.reduce amax %t dims [1] : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  %r5 = layout.reduce sum %h dims [] : !layout.tensor<8192x8192xf16>
  %ri = layout.reduce sum %i dims [] : !layout.tensor<8xi32>
  return %r1, %r2, %r4, %r5, %ri : !layout.tensor<16384xf32>, !layout.tensor<1024xf32>, !layout.tensor<4096xf32>, !layout.tensor<f16>, !layout.tensor<i64>
}
