func.func @v(%x: !layout.tensor<4x4xf32>) -> !layout.tensor<4x4xf32, strided<[1, 4]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  return %t : !layout.tensor<4x4xf32, strided<[1, 4]>>
}

func.func @v_result0_sizes(%x: !layout.tensor<4xf32>) -> !layout.tensor<4xf32> {
  %c = layout.clone %x : !layout.tensor<4xf32>
  return %c : !layout.tensor<4xf32>
}
