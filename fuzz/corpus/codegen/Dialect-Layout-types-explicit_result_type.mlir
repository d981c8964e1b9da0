func.func @explicit_result_type(%x: !layout.tensor<3x4xf32>) {
  %a = layout.view %x [4, 3] : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[3, 1], offset: 0>>
  %b = layout.select %x dim 0 index 2 : !layout.tensor<3x4xf32> -> !layout.tensor<4xf32, strided<[1], offset: 8>>
  %c = layout.to %x i8 : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xi8>
  return
}
