func.func @nhwc63h(%x: !layout.tensor<3x63x12543xf32>, %y: !layout.tensor<3x12543x63xf16>) {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<3x63x12543xf32>
  %h = layout.to %v f16 : !layout.tensor<3x12543x63xf32, strided<[790209, 1, 12543]>>
  layout.copy %h, %y : !layout.tensor<3x12543x63xf16, strided<[790209, 1, 12543]>>, !layout.tensor<3x12543x63xf16>
  return
}
