func.func @materialize(%x: !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>) -> (!layout.tensor<4x3xf32>, !layout.tensor<4x3xf16, strided<[1, 4]>>) {
  %m = layout.materialize %x {origin = "layout.contiguous", reason = "operand strides [1, 4] are not row-major"}
       : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>> -> !layout.tensor<4x3xf32>
  %n = layout.materialize %x {origin = "layout.to", reason = "dtype"}
       : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>> -> !layout.tensor<4x3xf16, strided<[1, 4]>>
  return %m, %n : !layout.tensor<4x3xf32>, !layout.tensor<4x3xf16, strided<[1, 4]>>
}
