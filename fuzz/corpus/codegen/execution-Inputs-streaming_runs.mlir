func.func @kept(%x: !layout.tensor<511x255x129xf32>) -> !layout.tensor<255x511x129xf32> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<511x255x129xf32>
  %c = layout.contiguous %v : !layout.tensor<255x511x129xf32, strided<[129, 32895, 1]>>
  return %c : !layout.tensor<255x511x129xf32>
}

func.func @reversed(%x: !layout.tensor<41x37x29x97xi32>) -> !layout.tensor<29x37x41x97xi32> {
  %v = layout.permute %x [2, 1, 0, 3] : !layout.tensor<41x37x29x97xi32>
  %c = layout.contiguous %v : !layout.tensor<29x37x41x97xi32, strided<[97, 2813, 104081, 1]>>
  return %c : !layout.tensor<29x37x41x97xi32>
}

func.func @sliced(%x: !layout.tensor<16400x515xf32>) -> !layout.tensor<16400x513xf32> {
  %s = layout.slice %x dim 1 [1 : 514] : !layout.tensor<16400x515xf32>
  %c = layout.contiguous %s : !layout.tensor<16400x513xf32, strided<[515, 1], offset: 1>>
  return %c : !layout.tensor<16400x513xf32>
}

func.func @runs17(%x: !layout.tensor<500000x19xf32>) -> !layout.tensor<500000x17xf32> {
  %s = layout.slice %x dim 1 [2 : 19] : !layout.tensor<500000x19xf32>
  %c = layout.contiguous %s : !layout.tensor<500000x17xf32, strided<[19, 1], offset: 2>>
  return %c : !layout.tensor<500000x17xf32>
}

func.func @f64(%x: !layout.tensor<255x257x65xf64>) -> !layout.tensor<257x255x65xf64> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<255x257x65xf64>
  %c = layout.contiguous %v : !layout.tensor<257x255x65xf64, strided<[65, 16705, 1]>>
  return %c : !layout.tensor<257x255x65xf64>
}

func.func @flipped(%x: !layout.tensor<16400x520xf32>) -> !layout.tensor<16400x520xf32> {
  %f = layout.flip %x [0] : !layout.tensor<16400x520xf32>
  %c = layout.contiguous %f : !layout.tensor<16400x520xf32, strided<[-520, 1], offset: 8527480>>
  return %c : !layout.tensor<16400x520xf32>
}

func.func @broadcast(%x: !layout.tensor<1x300xf32>) -> !layout.tensor<16384x300xf32> {
  %e = layout.expand %x [16384, -1] : !layout.tensor<1x300xf32>
  %c = layout.contiguous %e : !layout.tensor<16384x300xf32, strided<[0, 1]>>
  return %c : !layout.tensor<16384x300xf32>
}
