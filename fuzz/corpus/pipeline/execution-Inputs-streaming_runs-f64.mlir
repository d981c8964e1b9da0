func.func @f64(%x: !layout.tensor<255x257x65xf64>) -> !layout.tensor<257x255x65xf64> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<255x257x65xf64>
  %c = layout.contiguous %v : !layout.tensor<257x255x65xf64, strided<[65, 16705, 1]>>
  return %c : !layout.tensor<257x255x65xf64>
}
