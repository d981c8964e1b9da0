func.func @split(%x: !layout.tensor<2x3xf32>, %y: !layout.tensor<2x4xf32>)
