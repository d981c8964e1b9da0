func.func @dynamic(%a: !layout.tensor<?x3xf32>, %b: !layout.tensor<?x3xf32, strided<[3, 1], offset: 0>>,
