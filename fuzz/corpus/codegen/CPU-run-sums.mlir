func.func @sums(%x: !layout.tensor<2x3x4xf16>)
