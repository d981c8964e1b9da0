func.func @unsqueeze_stride_overflow(%x: !layout.tensor<2xi8, strided<[4611686018427387904]>>) {
  %0 = layout.unsqueeze %x dim 0 : !layout.tensor<2xi8, strided<[4611686018427387904]>>
  return
}
