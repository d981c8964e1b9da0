func.func @size_zero(%a: !layout.tensor<2x0x3xf32>, %b: !layout.tensor<2x0x3xf32, strided<[3, 3, 1]>>,
