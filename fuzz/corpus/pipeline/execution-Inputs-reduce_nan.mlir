func.func @amax_outer(%x: !layout.tensor<67x40xf32>) -> !layout.tensor<40xf32> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<67x40xf32>
  return %r : !layout.tensor<40xf32>
}

func.func @amin_outer(%x: !layout.tensor<67x40xf32>) -> !layout.tensor<40xf32> {
  %r = layout.reduce amin %x dims [0] : !layout.tensor<67x40xf32>
  return %r : !layout.tensor<40xf32>
}

func.func @amax_split(%x: !layout.tensor<4096x264xf32>) -> !layout.tensor<264xf32> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<4096x264xf32>
  return %r : !layout.tensor<264xf32>
}

func.func @amax_inner(%x: !layout.tensor<40x75xf32>) -> !layout.tensor<40xf32> {
  %r = layout.reduce amax %x dims [1] : !layout.tensor<40x75xf32>
  return %r : !layout.tensor<40xf32>
}

func.func @amin_inner(%x: !layout.tensor<40x75xf32>) -> !layout.tensor<40xf32> {
  %r = layout.reduce amin %x dims [1] : !layout.tensor<40x75xf32>
  return %r : !layout.tensor<40xf32>
}

func.func @amax_outer_f64(%x: !layout.tensor<67x40xf64>) -> !layout.tensor<40xf64> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<67x40xf64>
  return %r : !layout.tensor<40xf64>
}

func.func @amin_inner_f64(%x: !layout.tensor<40x75xf64>) -> !layout.tensor<40xf64> {
  %r = layout.reduce amin %x dims [1] : !layout.tensor<40x75xf64>
  return %r : !layout.tensor<40xf64>
}

func.func @amax_outer_f16(%x: !layout.tensor<67x40xf16>) -> !layout.tensor<40xf16> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<67x40xf16>
  return %r : !layout.tensor<40xf16>
}

func.func @amax_all(%x: !layout.tensor<1x3000xf32>) -> !layout.tensor<f32> {
  %r = layout.reduce amax %x dims [] : !layout.tensor<1x3000xf32>
  return %r : !layout.tensor<f32>
}
