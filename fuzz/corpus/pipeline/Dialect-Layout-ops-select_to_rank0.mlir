func.func @select_to_rank0(%x: !layout.tensor<3xf32, strided<[3], offset: 5>>) -> !layout.tensor<f32, strided<[], offset: 11>> {
  %a = layout.select %x dim 0 index 2 : !layout.tensor<3xf32, strided<[3], offset: 5>>
  return %a : !layout.tensor<f32, strided<[], offset: 11>>
}
