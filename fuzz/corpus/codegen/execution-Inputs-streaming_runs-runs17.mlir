func.func @runs17(%x: !layout.tensor<500000x19xf32>) -> !layout.tensor<500000x17xf32> {
  %s = layout.slice %x dim 1 [2 : 19] : !layout.tensor<500000x19xf32>
  %c = layout.contiguous %s : !layout.tensor<500000x17xf32, strided<[19, 1], offset: 2>>
  return %c : !layout.tensor<500000x17xf32>
}
