func.func @r1(%x: !layout.tensor<16384x1024xf32>) -> !layout.tensor<16384xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<16384x1024xf32>
  return %r : !layout.tensor<16384xf32>
}

func.func @r1_small(%x: !layout.tensor<64x1024xf32>) -> !layout.tensor<64xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<64x1024xf32>
  return %r : !layout.tensor<64xf32>
}

func.func @r1_odd(%x: !layout.tensor<16383x1025xf32>) -> !layout.tensor<16383xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<16383x1025xf32>
  return %r : !layout.tensor<16383xf32>
}

func.func @r1_quick(%x: !layout.tensor<4096x1024xf32>) -> !layout.tensor<4096xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<4096x1024xf32>
  return %r : !layout.tensor<4096xf32>
}
