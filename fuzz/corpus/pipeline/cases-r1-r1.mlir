func.func @r1(%x: !layout.tensor<16384x1024xf32>) -> !layout.tensor<16384xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<16384x1024xf32>
  return %r : !layout.tensor<16384xf32>
}
