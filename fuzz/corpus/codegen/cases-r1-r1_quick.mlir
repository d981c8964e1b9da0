func.func @r1_quick(%x: !layout.tensor<4096x1024xf32>) -> !layout.tensor<4096xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<4096x1024xf32>
  return %r : !layout.tensor<4096xf32>
}
