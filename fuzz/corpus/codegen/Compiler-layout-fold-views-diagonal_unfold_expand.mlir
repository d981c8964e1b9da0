func.func @diagonal_unfold_expand(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<10xf32>, %z: !layout.tensor<3x1xf32>) -> (!layout.tensor<2xf32, strided<[5], offset: 4>>, !layout.tensor<4x3xf32, strided<[2, 1]>>, !layout.tensor<2x3x2xf32, strided<[0, 1, 0]>>) {
  %d = layout.diagonal %x offset -1 dims 0, 1 : !layout.tensor<3x4xf32>
  %w = layout.unfold %y dim 0 size 3 step 2 : !layout.tensor<10xf32>
  %e = layout.expand %z [2, 3, 4] : !layout.tensor<3x1xf32>
  %s = layout.slice %e dim 2 [1 : 3 : 1] : !layout.tensor<2x3x4xf32, strided<[0, 1, 0]>>
  return %d, %w, %s : !layout.tensor<2xf32, strided<[5], offset: 4>>, !layout.tensor<4x3xf32, strided<[2, 1]>>, !layout.tensor<2x3x2xf32, strided<[0, 1, 0]>>
}
