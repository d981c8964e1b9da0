func.func @argmax_bf16(%x: !layout.tensor<25x125xbf16>) -> !layout.tensor<25xi64> {
  %s = layout.slice %x dim 1 [1 : : 3] : !layout.tensor<25x125xbf16>
  %r = layout.reduce argmax %s dims [1] : !layout.tensor<25x42xbf16, strided<[125, 3], offset: 1>>
  return %r : !layout.tensor<25xi64>
}
