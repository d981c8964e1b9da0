func.func @r2(%x: !layout.tensor<16384x1024xf32>) -> !layout.tensor<1024xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<16384x1024xf32>
  return %r : !layout.tensor<1024xf32>
}
