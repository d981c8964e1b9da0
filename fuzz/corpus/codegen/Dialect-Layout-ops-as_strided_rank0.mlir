func.func @as_strided_rank0(%s: !layout.storage<12xf32>) -> !layout.tensor<f32, strided<[], offset: 11>> {
  %v = layout.as_strided %s [] strides [] offset 11 : !layout.storage<12xf32>
  return %v : !layout.tensor<f32, strided<[], offset: 11>>
}
