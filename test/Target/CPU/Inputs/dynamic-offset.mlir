func.func @o(%y: !layout.tensor<?xf32>, %x: !layout.tensor<?xf32, strided<[1], offset: ?>>) -> !layout.tensor<?xf32> {
  %c = layout.clone %x : !layout.tensor<?xf32, strided<[1], offset: ?>>
  return %c : !layout.tensor<?xf32>
}

func.func @a(%x: !layout.tensor<?x?xf32, strided<[?, 1], offset: ?>>) -> (!layout.tensor<2x3xf32>, !layout.tensor<?xf32, strided<[?], offset: ?>>) {
  %v = layout.as_strided %x [2, 3] strides [3, 1] offset 1 : !layout.tensor<?x?xf32, strided<[?, 1], offset: ?>>
  %c = layout.clone %v contiguous : !layout.tensor<2x3xf32, strided<[3, 1], offset: 1>>
  %r = layout.select %x dim 1 index 2 : !layout.tensor<?x?xf32, strided<[?, 1], offset: ?>>
  return %c, %r : !layout.tensor<2x3xf32>, !layout.tensor<?xf32, strided<[?], offset: ?>>
}
