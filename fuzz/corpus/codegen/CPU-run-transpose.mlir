func.func @transpose(%t: !layout.tensor<3x4xf32>)
