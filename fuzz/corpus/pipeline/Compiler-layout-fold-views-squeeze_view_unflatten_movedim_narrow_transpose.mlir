func.func @squeeze_view_unflatten_movedim_narrow_transpose(%x: !layout.tensor<2x1x12xf32>) -> !layout.tensor<2x2x2x1x2xf32, strided<[4, 1, 2, 24, 12], offset: 4>> {
  %q = layout.squeeze %x [] : !layout.tensor<2x1x12xf32>
  %v = layout.view %q [2, 3, -1] : !layout.tensor<2x12xf32>
  %u = layout.unflatten %v dim 2 [2, 2] : !layout.tensor<2x3x4xf32>
  %m = layout.movedim %u 0 to 3 : !layout.tensor<2x3x2x2xf32>
  %n = layout.narrow %m dim 0 start 1 length 2 : !layout.tensor<3x2x2x2xf32, strided<[4, 2, 1, 12]>>
  %t = layout.transpose %n 1, -2 : !layout.tensor<2x2x2x2xf32, strided<[4, 2, 1, 12], offset: 4>>
  %w = layout.view %t [2, 2, 2, 1, 2] : !layout.tensor<2x2x2x2xf32, strided<[4, 1, 2, 12], offset: 4>>
  return %w : !layout.tensor<2x2x2x1x2xf32, strided<[4, 1, 2, 24, 12], offset: 4>>
}
