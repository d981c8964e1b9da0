func.func @"not.c"(%x: !layout.tensor<4xf32>) -> !layout.tensor<4xf16> {
  %h = layout.to %x f16 : !layout.tensor<4xf32>
  return %h : !layout.tensor<4xf16>
}
