func.func @flatten(%x: !layout.tensor<2x3x4xf32>, %p: !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, %s: !layout.tensor<f32>) {
  %a = layout.flatten %x dims 1 to 2 : !layout.tensor<2x3x4xf32>
  %b = layout.flatten %p dims 0 to 1 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %c = layout.flatten %p dims 1 to -1 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %d = layout.flatten %p dims 2 to 2 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %e = layout.flatten %s dims 0 to -1 : !layout.tensor<f32>
  return
}
