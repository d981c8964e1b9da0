func.func @r2_quick(%x: !layout.tensor<4096x1024xf32>) -> !layout.tensor<1024xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<4096x1024xf32>
  return %r : !layout.tensor<1024xf32>
}
