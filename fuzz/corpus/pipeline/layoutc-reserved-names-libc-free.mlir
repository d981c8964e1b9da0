func.func @free(%x: !layout.tensor<4xf32>) -> !layout.tensor<4xf32> {
  %c = layout.clone %x : !layout.tensor<4xf32>
  return %c : !layout.tensor<4xf32>
}
