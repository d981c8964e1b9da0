func.func @sum_inner(%x: !layout.tensor<8x1024xf32>) -> !layout.tensor<8xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<8x1024xf32>
  return %r : !layout.tensor<8xf32>
}
