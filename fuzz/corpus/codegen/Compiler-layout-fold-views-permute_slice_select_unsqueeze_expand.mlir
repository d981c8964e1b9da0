func.func @permute_slice_select_unsqueeze_expand(%x: !layout.tensor<2x3x4x5xf32>) -> !layout.tensor<3x5x2x2xf32, strided<[0, 1, 60, 10], offset: 45>> {
  %p = layout.permute %x [3, 1, 0, 2] : !layout.tensor<2x3x4x5xf32>
  %s = layout.slice %p dim 3 [1 : 4 : 2] : !layout.tensor<5x3x2x4xf32, strided<[1, 20, 60, 5]>>
  %r = layout.select %s dim 1 index -1 : !layout.tensor<5x3x2x2xf32, strided<[1, 20, 60, 10], offset: 5>>
  %u = layout.unsqueeze %r dim 0 : !layout.tensor<5x2x2xf32, strided<[1, 60, 10], offset: 45>>
  %e = layout.expand %u [3, -1, -1, -1] : !layout.tensor<1x5x2x2xf32, strided<[5, 1, 60, 10], offset: 45>>
  return %e : !layout.tensor<3x5x2x2xf32, strided<[0, 1, 60, 10], offset: 45>>
}
