func.func private @external(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32>
