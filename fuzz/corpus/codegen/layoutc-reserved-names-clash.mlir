func.func @t(%x: !layout.tensor<4xf32>) -> !layout.tensor<4xf32> {
  %c = layout.clone %x : !layout.tensor<4xf32>
  return %c : !layout.tensor<4xf32>
}

func.func @t_raw(%x: !layout.tensor<4xf32>) -> !layout.tensor<4xf32> {
  %c = layout.clone %x : !layout.tensor<4xf32>
  return %c : !layout.tensor<4xf32>
}
