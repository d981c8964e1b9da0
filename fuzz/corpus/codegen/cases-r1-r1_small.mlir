func.func @r1_small(%x: !layout.tensor<64x1024xf32>) -> !layout.tensor<64xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<64x1024xf32>
  return %r : !layout.tensor<64xf32>
}
