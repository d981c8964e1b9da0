func.func @s(%s: !layout.storage<?xf32>, %x: !layout.tensor<?xf32>) -> !layout.tensor<3x4xf32> {
  %v = layout.as_strided %s [3, 4] strides [1, 5] offset 7 : !layout.storage<?xf32>
  %c = layout.clone %v contiguous : !layout.tensor<3x4xf32, strided<[1, 5], offset: 7>>
  return %c : !layout.tensor<3x4xf32>
}
