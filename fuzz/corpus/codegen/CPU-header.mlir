func.func @views(%x: !layout.tensor<4x6xf16>)
    -> (!layout.tensor<6x4xf16>, !layout.tensor<2x6xf16, strided<[6, 1], offset: 12>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x6xf16>
  %c = layout.contiguous %t : !layout.tensor<6x4xf16, strided<[1, 6]>>
  %s = layout.slice %x dim 0 [2 :] : !layout.tensor<4x6xf16>
  return %c, %s : !layout.tensor<6x4xf16>, !layout.tensor<2x6xf16, strided<[6, 1], offset: 12>>
}

func.func @write_into(%x: !layout.tensor<8xi8>, %s: !layout.storage<16xi1>) {
  %v = layout.as_strided %s [8] strides [2] offset 1 : !layout.storage<16xi1>
  layout.copy %x, %v : !layout.tensor<8xi8>, !layout.tensor<8xi1, strided<[2], offset: 1>>
  return
}
