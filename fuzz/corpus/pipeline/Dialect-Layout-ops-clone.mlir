func.func @clone(%p: !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, %n: !layout.tensor<6x2xf32, strided<[1, 12]>>,
