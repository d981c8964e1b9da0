func.func @slice(%x: !layout.tensor<4x8xf32>) {
  %0 = layout.slice %x dim 1 [1 : 100 : 2] : !layout.tensor<4x8xf32>
  %1 = layout.slice %x dim 1 [: 5] : !layout.tensor<4x8xf32>
  %2 = layout.slice %x dim 1 [2 :] : !layout.tensor<4x8xf32>
  %3 = layout.slice %x dim 1 [:] : !layout.tensor<4x8xf32>
  %4 = layout.slice %x dim 1 [: : 2] : !layout.tensor<4x8xf32>
  %5 = layout.slice %x dim -1 [-3 : -1] : !layout.tensor<4x8xf32>
  %6 = layout.slice %x dim 0 [1 : 3] : !layout.tensor<4x8xf32>
  %7 = layout.slice %x dim 1 [6 : 2] : !layout.tensor<4x8xf32>
  %8 = layout.slice %x dim 1 [1 : 3 : 1] : !layout.tensor<4x8xf32>
  return
}
