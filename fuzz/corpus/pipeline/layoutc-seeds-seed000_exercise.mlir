func.func @seed000_exercise(%x: !layout.tensor<64x32xf32>) -> (!layout.tensor<f32>, !layout.tensor<f32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<64x32xf32>
  %c = layout.contiguous %t : !layout.tensor<32x64xf32, strided<[1, 32]>>
  %s1 = layout.reduce sum %c dims [] : !layout.tensor<32x64xf32>
  %s2 = layout.reduce sum %t dims [] : !layout.tensor<32x64xf32, strided<[1, 32]>>
  return %s1, %s2 : !layout.tensor<f32>, !layout.tensor<f32>
}
