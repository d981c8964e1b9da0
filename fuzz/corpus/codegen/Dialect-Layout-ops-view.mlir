func.func @view(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<6x2xf32> {
  %v = layout.view %x [6, -1] : !layout.tensor<3x4xf32>
  return %v : !layout.tensor<6x2xf32>
}
