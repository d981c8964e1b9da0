func.func @as_strided_numel_overflow(%s: !layout.storage<?xf32>) {
  %0 = layout.as_strided %s [4611686018427387904, 4] strides [0, 0] offset 0 : !layout.storage<?xf32>
  return
}
