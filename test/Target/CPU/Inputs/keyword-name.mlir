func.func @transpose(%x: !layout.tensor<4x4xf32>) -> !layout.tensor<4x4xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x4xf32, strided<[1, 4]>>
  return %c : !layout.tensor<4x4xf32>
}

func.func @double(%x: !layout.tensor<4xf32>) -> !layout.tensor<4xf32> {
  %c = layout.clone %x : !layout.tensor<4xf32>
  return %c : !layout.tensor<4xf32>
}
