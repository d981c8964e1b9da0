func.func @empty(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<0x4xf32, strided<[4, 1], offset: 8>> {
  %e = layout.slice %x dim 0 [2 : 2 : 1] : !layout.tensor<3x4xf32>
  return %e : !layout.tensor<0x4xf32, strided<[4, 1], offset: 8>>
}
