func.func @expand_edges(%v: !layout.tensor<3xf32>, %s: !layout.tensor<f32>, %c: !layout.tensor<3x1xf32, strided<[4, 1], offset: 1>>) {
  %a = layout.expand %v [1, 3] : !layout.tensor<3xf32>
  %b = layout.expand %s [3, 2] : !layout.tensor<f32>
  %d = layout.expand %c [3, 5] : !layout.tensor<3x1xf32, strided<[4, 1], offset: 1>>
  return
}
