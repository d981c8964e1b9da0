func.func @slice_bounds(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>, !layout.tensor<2x4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>, !layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>, !layout.tensor<3x2xf32, strided<[4, 2], offset: 1>>, !layout.tensor<3x2xf32, strided<[4, 3]>>, !layout.tensor<3x0xf32, strided<[4, 1], offset: 3>>, !layout.tensor<3x4xf32>, !layout.tensor<3x0xf32, strided<[4, 1], offset: 4>>, !layout.tensor<1x4xf32, strided<[4, 1], offset: 8>>, !layout.tensor<3x0xf32, strided<[4, 1]>>, !layout.tensor<3x4xf32>) {
  %0 = layout.slice %x dim 1 [1 : 3] : !layout.tensor<3x4xf32>
  %1 = layout.slice %x dim 0 [: 2] : !layout.tensor<3x4xf32>
  %2 = layout.slice %x dim 0 [1 :] : !layout.tensor<3x4xf32>
  %3 = layout.slice %x dim -1 [-3 : -1] : !layout.tensor<3x4xf32>
  %4 = layout.slice %x dim 1 [1 : 100 : 2] : !layout.tensor<3x4xf32>
  %5 = layout.slice %x dim 1 [: : 3] : !layout.tensor<3x4xf32>
  %6 = layout.slice %x dim 1 [3 : 1] : !layout.tensor<3x4xf32>
  %7 = layout.slice %x dim 1 [-100 : 100] : !layout.tensor<3x4xf32>
  %8 = layout.slice %x dim 1 [5 :] : !layout.tensor<3x4xf32>
  %9 = layout.slice %x dim 0 [-1 :] : !layout.tensor<3x4xf32>
  %10 = layout.slice %x dim 1 [: -5] : !layout.tensor<3x4xf32>
  %11 = layout.slice %x dim 0 [:] : !layout.tensor<3x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : !layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>, !layout.tensor<2x4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>, !layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>, !layout.tensor<3x2xf32, strided<[4, 2], offset: 1>>, !layout.tensor<3x2xf32, strided<[4, 3]>>, !layout.tensor<3x0xf32, strided<[4, 1], offset: 3>>, !layout.tensor<3x4xf32>, !layout.tensor<3x0xf32, strided<[4, 1], offset: 4>>, !layout.tensor<1x4xf32, strided<[4, 1], offset: 8>>, !layout.tensor<3x0xf32, strided<[4, 1]>>, !layout.tensor<3x4xf32>
}
