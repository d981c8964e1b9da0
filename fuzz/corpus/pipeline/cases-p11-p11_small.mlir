func.func @p11_small(%x: !layout.tensor<1x3x296x296xi8>) -> !layout.tensor<1x296x296x3xi8> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<1x3x296x296xi8>
  %c = layout.contiguous %v : !layout.tensor<1x296x296x3xi8, strided<[262848, 296, 1, 87616]>>
  return %c : !layout.tensor<1x296x296x3xi8>
}
