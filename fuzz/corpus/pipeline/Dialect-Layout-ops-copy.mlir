func.func @copy(%s: !layout.tensor<4xf32>, %d: !layout.tensor<3x4xf16>, %t: !layout.tensor<3x4xf16, strided<[1, 3]>>, %c: !layout.tensor<3x1xi32>) {
  layout.copy %s, %d : !layout.tensor<4xf32>, !layout.tensor<3x4xf16>
  layout.copy %d, %t : !layout.tensor<3x4xf16>, !layout.tensor<3x4xf16, strided<[1, 3]>>
  layout.copy %c, %t : !layout.tensor<3x1xi32>, !layout.tensor<3x4xf16, strided<[1, 3]>>
  return
}
