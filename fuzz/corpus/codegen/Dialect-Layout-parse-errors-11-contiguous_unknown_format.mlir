func.func @contiguous_unknown_format(%x: !layout.tensor<3x4xf32>) {
  %0 = layout.contiguous %x nhwc : !layout.tensor<3x4xf32>
  return
}
