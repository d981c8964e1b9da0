func.func @slice_step_one(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>> {
  %s = layout.slice %x dim 0 [1 : 3 : 1] : !layout.tensor<3x4xf32>
  return %s : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
}
