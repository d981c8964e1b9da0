func.func @nhwc63(%x: !layout.tensor<6x63x12543xf32>) -> !layout.tensor<6x12543x63xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<6x63x12543xf32>
  %c = layout.contiguous %v : !layout.tensor<6x12543x63xf32, strided<[790209, 1, 12543]>>
  return %c : !layout.tensor<6x12543x63xf32>
}
