func.func @hwc63small(%x: !layout.tensor<63x9001xf32>) -> !layout.tensor<9001x63xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<63x9001xf32>
  %c = layout.contiguous %v : !layout.tensor<9001x63xf32, strided<[1, 9001]>>
  return %c : !layout.tensor<9001x63xf32>
}
