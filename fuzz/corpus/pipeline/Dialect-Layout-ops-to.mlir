func.func @to(%p: !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, %n: !layout.tensor<6x2xf32, strided<[1, 12]>>, %o: !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>) {
  %a = layout.to %p f16 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %b = layout.to %n f16 : !layout.tensor<6x2xf32, strided<[1, 12]>>
  %c = layout.to %o f32 : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  %d = layout.to %o i1 : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  %e = layout.to %o bf16 : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return
}
