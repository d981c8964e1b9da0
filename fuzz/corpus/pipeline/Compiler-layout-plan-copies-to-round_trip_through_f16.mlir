func.func @round_trip_through_f16(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32> {
  %h = layout.to %x f16 : !layout.tensor<3x4xf32>
  %f = layout.to %h f32 : !layout.tensor<3x4xf16>
  return %f : !layout.tensor<3x4xf32>
}
