func.func @flip(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32> {
  %a = layout.flip %x [0] : !layout.tensor<3x4xf32>
  %b = layout.flip %x [0, -1] : !layout.tensor<3x4xf32>
  %c = layout.flip %a [0] : !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
  return %c : !layout.tensor<3x4xf32>
}
