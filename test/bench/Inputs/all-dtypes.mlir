func.func @t_i1(%x: !layout.tensor<4x3xi1>) -> !layout.tensor<3x4xi1> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xi1>
  %c = layout.contiguous %v : !layout.tensor<3x4xi1, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xi1>
}
func.func @t_i8(%x: !layout.tensor<4x3xi8>) -> !layout.tensor<3x4xi8> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xi8>
  %c = layout.contiguous %v : !layout.tensor<3x4xi8, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xi8>
}
func.func @t_i16(%x: !layout.tensor<4x3xi16>) -> !layout.tensor<3x4xi16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xi16>
  %c = layout.contiguous %v : !layout.tensor<3x4xi16, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xi16>
}
func.func @t_i32(%x: !layout.tensor<4x3xi32>) -> !layout.tensor<3x4xi32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xi32>
  %c = layout.contiguous %v : !layout.tensor<3x4xi32, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xi32>
}
func.func @t_i64(%x: !layout.tensor<4x3xi64>) -> !layout.tensor<3x4xi64> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xi64>
  %c = layout.contiguous %v : !layout.tensor<3x4xi64, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xi64>
}
func.func @t_ui8(%x: !layout.tensor<4x3xui8>) -> !layout.tensor<3x4xui8> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xui8>
  %c = layout.contiguous %v : !layout.tensor<3x4xui8, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xui8>
}
func.func @t_f16(%x: !layout.tensor<4x3xf16>) -> !layout.tensor<3x4xf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xf16>
  %c = layout.contiguous %v : !layout.tensor<3x4xf16, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xf16>
}
func.func @t_bf16(%x: !layout.tensor<4x3xbf16>) -> !layout.tensor<3x4xbf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xbf16>
  %c = layout.contiguous %v : !layout.tensor<3x4xbf16, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xbf16>
}
func.func @t_f32(%x: !layout.tensor<4x3xf32>) -> !layout.tensor<3x4xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xf32>
  %c = layout.contiguous %v : !layout.tensor<3x4xf32, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xf32>
}
func.func @t_f64(%x: !layout.tensor<4x3xf64>) -> !layout.tensor<3x4xf64> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4x3xf64>
  %c = layout.contiguous %v : !layout.tensor<3x4xf64, strided<[1, 3]>>
  return %c : !layout.tensor<3x4xf64>
}
