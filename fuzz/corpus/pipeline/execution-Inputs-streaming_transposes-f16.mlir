func.func @f16(%x: !layout.tensor<4097x4095xf16>) -> !layout.tensor<4095x4097xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4097x4095xf16>
  %c = layout.contiguous %t : !layout.tensor<4095x4097xf16, strided<[1, 4095]>>
  return %c : !layout.tensor<4095x4097xf16>
}
