func.func @nchw3h(%x: !layout.tensor<3x3x1024x1031xf32>, %y: !layout.tensor<3x1024x1031x3xf16>) {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<3x3x1024x1031xf32>
  layout.copy %v, %y : !layout.tensor<3x1024x1031x3xf32, strided<[3167232, 1031, 1, 1055744]>>, !layout.tensor<3x1024x1031x3xf16>
  return
}
