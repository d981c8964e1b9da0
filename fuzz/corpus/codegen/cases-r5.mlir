func.func @r5(%x: !layout.tensor<8192x8192xf16>) -> !layout.tensor<f16> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<8192x8192xf16>
  return %r : !layout.tensor<f16>
}

func.func @r5_small(%x: !layout.tensor<256x512xf16>) -> !layout.tensor<f16> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<256x512xf16>
  return %r : !layout.tensor<f16>
}

func.func @r5_odd(%x: !layout.tensor<8191x8193xf16>) -> !layout.tensor<f16> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<8191x8193xf16>
  return %r : !layout.tensor<f16>
}

func.func @r5_quick(%x: !layout.tensor<4096x4096xf16>) -> !layout.tensor<f16> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<4096x4096xf16>
  return %r : !layout.tensor<f16>
}
