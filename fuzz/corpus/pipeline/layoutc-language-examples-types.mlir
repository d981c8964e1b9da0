func.func @types(%s: !layout.storage<24xf32>, %u: !layout.storage<?xf32>, %a: !layout.tensor<2x3x4xf32>, %b: !layout.tensor<4x2x3xf32, strided<[1, 12, 4], offset: 0>>, %d: !layout.tensor<?x3xf32, strided<[?, 1], offset: ?>>, %e: !layout.tensor<2x3x4xf32, strided<[12, 4, 1], offset: 0>>) -> (!layout.tensor<2x3x4xf32>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4], offset: 0>>) {
  return %e, %b : !layout.tensor<2x3x4xf32>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4], offset: 0>>
}
