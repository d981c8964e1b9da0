func.func @reductions(%x: !layout.tensor<16384x1024xf32>, %y: !layout.tensor<4096x4096xf32>, %h: !layout.tensor<8192x8192xf16>, %i: !layout.tensor<8xi32>) -> (!layout.tensor<16384xf32>, !layout.tensor<1024xf32>, !layout.tensor<4096xf32>, !layout.tensor<f16>, !layout.tensor<i64>) {
  %t = layout.transpose %y 0, 1 : !layout.tensor<4096x4096xf32>
  %r1 = layout.reduce sum %x dims [1] : !layout.tensor<16384x1024xf32>
  %r2 = layout.reduce sum %x dims [0] : !layout.tensor<16384x1024xf32>
  %r4 = layout.reduce amax %t dims [1] : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  %r5 = layout.reduce sum %h dims [] : !layout.tensor<8192x8192xf16>
  %ri = layout.reduce sum %i dims [] : !layout.tensor<8xi32>
  return %r1, %r2, %r4, %r5, %ri : !layout.tensor<16384xf32>, !layout.tensor<1024xf32>, !layout.tensor<4096xf32>, !layout.tensor<f16>, !layout.tensor<i64>
}
