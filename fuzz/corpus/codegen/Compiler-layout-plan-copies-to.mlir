func.func @contiguous_after_to(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %h = layout.to %t f16 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %c = layout.contiguous %h : !layout.tensor<4x3xf16, strided<[1, 4]>>
  return %c : !layout.tensor<4x3xf16>
}

func.func @to_after_channels_last(%x: !layout.tensor<2x3x4x5xf32>) -> !layout.tensor<2x3x4x5xf16, strided<[60, 1, 15, 3]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<2x3x4x5xf32>
  %f = layout.to %c f16 : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
  return %f : !layout.tensor<2x3x4x5xf16, strided<[60, 1, 15, 3]>>
}

func.func @to_after_clone(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xbf16> {
  %c = layout.clone %x : !layout.tensor<3x4xf32>
  %f = layout.to %c bf16 : !layout.tensor<3x4xf32>
  return %f : !layout.tensor<3x4xbf16>
}

func.func @round_trip_through_f16(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32> {
  %h = layout.to %x f16 : !layout.tensor<3x4xf32>
  %f = layout.to %h f32 : !layout.tensor<3x4xf16>
  return %f : !layout.tensor<3x4xf32>
}
