func.func @copy_between_interleaved_columns(%x: !layout.tensor<3x4xf32>) {
  %e = layout.slice %x dim 1 [0 : 4 : 2] : !layout.tensor<3x4xf32>
  %o = layout.slice %x dim 1 [1 : 4 : 2] : !layout.tensor<3x4xf32>
  layout.copy %e, %o : !layout.tensor<3x2xf32, strided<[4, 2]>>, !layout.tensor<3x2xf32, strided<[4, 2], offset: 1>>
  return
}
