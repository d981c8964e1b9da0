func.func @no_single_strided_view(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<12xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %v = layout.view %c [12] : !layout.tensor<4x3xf32>
  %m = layout.clone %v : !layout.tensor<12xf32>
  return %m : !layout.tensor<12xf32>
}
