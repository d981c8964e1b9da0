func.func @idx(%x: !layout.tensor<?xf32>, %n: index) -> !layout.tensor<?xf32> {
  %v = layout.as_strided %x [%n] strides [1] offset 0 : !layout.tensor<?xf32>
  %c = layout.clone %v contiguous : !layout.tensor<?xf32, strided<[1]>>
  return %c : !layout.tensor<?xf32>
}
