func.func @hwc24(%x: !layout.tensor<24x350003xf32>) -> !layout.tensor<350003x24xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<24x350003xf32>
  %c = layout.contiguous %v : !layout.tensor<350003x24xf32, strided<[1, 350003]>>
  return %c : !layout.tensor<350003x24xf32>
}
