func.func @nhwc20d(%x: !layout.tensor<2x20x120003xf64>) -> !layout.tensor<2x120003x20xf64> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<2x20x120003xf64>
  %c = layout.contiguous %v : !layout.tensor<2x120003x20xf64, strided<[2400060, 1, 120003]>>
  return %c : !layout.tensor<2x120003x20xf64>
}
