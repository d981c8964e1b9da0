func.func @reduce_of_converted_copy(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %h = layout.to %t f16 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %r = layout.reduce sum %h dims [1] : !layout.tensor<4x3xf16, strided<[1, 4]>>
  return %r : !layout.tensor<4xf16>
}
