func.func @views(%x: !layout.tensor<4x6xf16>)
