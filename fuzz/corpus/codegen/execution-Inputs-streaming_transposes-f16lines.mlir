func.func @f16lines(%x: !layout.tensor<4128x4104xf16>) -> !layout.tensor<4104x4128xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4128x4104xf16>
  %c = layout.contiguous %t : !layout.tensor<4104x4128xf16, strided<[1, 4104]>>
  return %c : !layout.tensor<4104x4128xf16>
}
