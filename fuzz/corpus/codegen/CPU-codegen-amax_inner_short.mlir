func.func @amax_inner_short(%x: !layout.tensor<65536x3xf32>) -> !layout.tensor<65536xf32> {
  %r = layout.reduce amax %x dims [1] : !layout.tensor<65536x3xf32>
  return %r : !layout.tensor<65536xf32>
}
