// A function name that is not UTF-8 (the byte 0xff); see explain-utf8.test.
func.func @"badÿname"(%x: !layout.tensor<4xf32>) -> !layout.tensor<4xf16> {
  %h = layout.to %x f16 : !layout.tensor<4xf32>
  return %h : !layout.tensor<4xf16>
}
