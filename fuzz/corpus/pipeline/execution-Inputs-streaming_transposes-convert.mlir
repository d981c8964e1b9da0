func.func @convert(%x: !layout.tensor<2897x2899xf32>, %y: !layout.tensor<2899x2897xf16>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2897x2899xf32>
  layout.copy %t, %y : !layout.tensor<2899x2897xf32, strided<[1, 2899]>>, !layout.tensor<2899x2897xf16>
  return
}
