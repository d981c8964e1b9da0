func.func @identity_views(%x: !layout.tensor<2x3xf32>) -> (!layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>) {
  %0 = layout.permute %x [0, 1] : !layout.tensor<2x3xf32>
  %1 = layout.transpose %x 1, -1 : !layout.tensor<2x3xf32>
  %2 = layout.view %x [2, 3] : !layout.tensor<2x3xf32>
  %3 = layout.slice %x dim 1 [: : 1] : !layout.tensor<2x3xf32>
  %4 = layout.narrow %x dim 0 start 0 length 2 : !layout.tensor<2x3xf32>
  %5 = layout.expand %x [-1, 3] : !layout.tensor<2x3xf32>
  %6 = layout.squeeze %x [] : !layout.tensor<2x3xf32>
  %7 = layout.movedim %x 1 to 1 : !layout.tensor<2x3xf32>
  %8 = layout.unflatten %x dim 1 [3] : !layout.tensor<2x3xf32>
  %9 = layout.split %x dim 0 [2] : !layout.tensor<2x3xf32>
  %10 = layout.as_strided %x [2, 3] strides [3, 1] offset 0 : !layout.tensor<2x3xf32>
  %u = layout.unsqueeze %x dim 1 : !layout.tensor<2x3xf32>
  %11 = layout.squeeze %u [1] : !layout.tensor<2x1x3xf32>
  %f = layout.flip %x [0, 1] : !layout.tensor<2x3xf32>
  %12 = layout.flip %f [1, 0] : !layout.tensor<2x3xf32, strided<[-3, -1], offset: 5>>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>
}
