func.func @seed000_memory_accounting(%t: !layout.tensor<1024x1024xf32>) -> (!layout.tensor<1024x1024xf16>, !layout.tensor<512x1024xf32>) {
  %t16 = layout.to %t f16 : !layout.tensor<1024x1024xf32>
  %view = layout.slice %t dim 0 [: 512 : 1] : !layout.tensor<1024x1024xf32>
  return %t16, %view : !layout.tensor<1024x1024xf16>, !layout.tensor<512x1024xf32>
}
