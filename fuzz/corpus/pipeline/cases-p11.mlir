func.func @p11(%x: !layout.tensor<16x3x1024x1024xi8>) -> !layout.tensor<16x1024x1024x3xi8> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<16x3x1024x1024xi8>
  %c = layout.contiguous %v : !layout.tensor<16x1024x1024x3xi8, strided<[3145728, 1024, 1, 1048576]>>
  return %c : !layout.tensor<16x1024x1024x3xi8>
}

func.func @p11_small(%x: !layout.tensor<1x3x296x296xi8>) -> !layout.tensor<1x296x296x3xi8> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<1x3x296x296xi8>
  %c = layout.contiguous %v : !layout.tensor<1x296x296x3xi8, strided<[262848, 296, 1, 87616]>>
  return %c : !layout.tensor<1x296x296x3xi8>
}

func.func @p11_odd(%x: !layout.tensor<15x3x1023x1025xi8>) -> !layout.tensor<15x1023x1025x3xi8> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<15x3x1023x1025xi8>
  %c = layout.contiguous %v : !layout.tensor<15x1023x1025x3xi8, strided<[3145725, 1025, 1, 1048575]>>
  return %c : !layout.tensor<15x1023x1025x3xi8>
}
