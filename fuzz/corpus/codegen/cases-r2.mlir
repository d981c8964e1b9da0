func.func @r2(%x: !layout.tensor<16384x1024xf32>) -> !layout.tensor<1024xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<16384x1024xf32>
  return %r : !layout.tensor<1024xf32>
}

func.func @r2_small(%x: !layout.tensor<64x1024xf32>) -> !layout.tensor<1024xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<64x1024xf32>
  return %r : !layout.tensor<1024xf32>
}

func.func @r2_odd(%x: !layout.tensor<16383x1025xf32>) -> !layout.tensor<1025xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<16383x1025xf32>
  return %r : !layout.tensor<1025xf32>
}

func.func @r2_quick(%x: !layout.tensor<4096x1024xf32>) -> !layout.tensor<1024xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<4096x1024xf32>
  return %r : !layout.tensor<1024xf32>
}
