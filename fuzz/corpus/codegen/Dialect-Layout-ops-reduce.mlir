func.func @reduce(%x: !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>) {
  %0 = layout.reduce sum %x dims [1, 2] keepdim : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %1 = layout.reduce mean %x dims [-1] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %2 = layout.reduce prod %x dims [1] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %3 = layout.reduce amax %x dims [0] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %4 = layout.reduce amin %x dims [0, 2] keepdim : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %5 = layout.reduce argmax %x dims [1] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %6 = layout.reduce argmin %x dims [] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %7 = layout.reduce argmax %x dims [] keepdim : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %8 = layout.reduce sum %x dims [] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  return
}
