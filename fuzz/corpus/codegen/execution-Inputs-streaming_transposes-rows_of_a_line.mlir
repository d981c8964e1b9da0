func.func @rows_of_a_line(%x: !layout.tensor<16x12x16x10x16x18xf32>) -> !layout.tensor<18x10x12x16x16x16xf32> {
  %p = layout.permute %x [5, 3, 1, 0, 2, 4] : !layout.tensor<16x12x16x10x16x18xf32>
  %c = layout.contiguous %p : !layout.tensor<18x10x12x16x16x16xf32, strided<[1, 288, 46080, 552960, 2880, 18]>>
  return %c : !layout.tensor<18x10x12x16x16x16xf32>
}
