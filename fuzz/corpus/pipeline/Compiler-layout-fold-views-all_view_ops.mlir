func.func @all_view_ops(%s: !layout.storage<130xf32>) -> (!layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 80>>, !layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 125>>) {
  %a = layout.as_strided %s [2, 3, 4, 5] strides [60, 20, 5, 1] offset 7 : !layout.storage<130xf32>
  %v = layout.view %a [6, 20] : !layout.tensor<2x3x4x5xf32, strided<[60, 20, 5, 1], offset: 7>>
  %u = layout.unflatten %v dim 1 [4, 5] : !layout.tensor<6x20xf32, strided<[20, 1], offset: 7>>
  %p = layout.permute %u [2, 0, 1] : !layout.tensor<6x4x5xf32, strided<[20, 5, 1], offset: 7>>
  %t = layout.transpose %p 1, 2 : !layout.tensor<5x6x4xf32, strided<[1, 20, 5], offset: 7>>
  %m = layout.movedim %t 0 to 2 : !layout.tensor<5x4x6xf32, strided<[1, 5, 20], offset: 7>>
  %sl = layout.slice %m dim 1 [1 :: 2] : !layout.tensor<4x6x5xf32, strided<[5, 20, 1], offset: 7>>
  %se = layout.select %sl dim 2 index -2 : !layout.tensor<4x3x5xf32, strided<[5, 40, 1], offset: 27>>
  %n = layout.narrow %se dim 0 start 1 length 3 : !layout.tensor<4x3xf32, strided<[5, 40], offset: 30>>
  %d = layout.diagonal %n offset 0 dims 0, 1 : !layout.tensor<3x3xf32, strided<[5, 40], offset: 35>>
  %us = layout.unsqueeze %d dim 0 : !layout.tensor<3xf32, strided<[45], offset: 35>>
  %e = layout.expand %us [2, -1, -1] : !layout.tensor<1x3xf32, strided<[135, 45], offset: 35>>
  %sq = layout.squeeze %e [1] : !layout.tensor<2x1x3xf32, strided<[0, 135, 45], offset: 35>>
  %uf = layout.unfold %sq dim 1 size 2 step 1 : !layout.tensor<2x3xf32, strided<[0, 45], offset: 35>>
  %fl = layout.flip %uf [1] : !layout.tensor<2x2x2xf32, strided<[0, 45, 45], offset: 35>>
  %r0, %r1 = layout.split %fl dim 2 [1, 1] : !layout.tensor<2x2x2xf32, strided<[0, -45, 45], offset: 80>>
  return %r0, %r1 : !layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 80>>, !layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 125>>
}
