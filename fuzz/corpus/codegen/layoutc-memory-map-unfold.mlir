func.func @unfold(%x: !layout.tensor<5xf32>) -> !layout.tensor<3x3xf32, strided<[1, 1]>> {
  %w = layout.unfold %x dim 0 size 3 step 1 : !layout.tensor<5xf32>
  return %w : !layout.tensor<3x3xf32, strided<[1, 1]>>
}
