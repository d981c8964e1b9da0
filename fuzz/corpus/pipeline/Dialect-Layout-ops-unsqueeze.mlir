func.func @unsqueeze(%x: !layout.tensor<4x3xf32, strided<[1, 4]>>, %y: !layout.tensor<3x4xf32>, %s: !layout.tensor<f32>) {
  %a = layout.unsqueeze %x dim 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %b = layout.unsqueeze %y dim -1 : !layout.tensor<3x4xf32>
  %c = layout.unsqueeze %s dim 0 : !layout.tensor<f32>
  return
}
