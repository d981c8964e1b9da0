func.func @no_single_strided_view_step(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %v = layout.view %c [12] : !layout.tensor<4x3xf32>
  %s = layout.slice %v dim 0 [0 : 12 : 5] : !layout.tensor<12xf32>
  %m = layout.clone %s : !layout.tensor<3xf32, strided<[5]>>
  return %m : !layout.tensor<3xf32>
}
