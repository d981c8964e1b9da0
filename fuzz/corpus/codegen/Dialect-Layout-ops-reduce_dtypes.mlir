func.func @reduce_dtypes(%i: !layout.tensor<2x3xi32>, %b: !layout.tensor<2x3xi8>, %u: !layout.tensor<2x3xui8>,
