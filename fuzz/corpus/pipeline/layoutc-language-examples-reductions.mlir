func.func @reductions(%t: !layout.tensor<2x3x4xf32>, %x: !layout.tensor<3x4xf32>, %i: !layout.tensor<3x4xi32>, %h: !layout.tensor<3x4xf16>, %b: !layout.tensor<3x4xbf16>)
