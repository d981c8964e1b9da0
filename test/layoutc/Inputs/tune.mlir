func.func @t(%x: !layout.tensor<96x200xf32>) -> !layout.tensor<200x96xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<96x200xf32> -> !layout.tensor<200x96xf32, strided<[1, 200]>>
  %c = layout.contiguous %p : !layout.tensor<200x96xf32, strided<[1, 200]>> -> !layout.tensor<200x96xf32>
  return %c : !layout.tensor<200x96xf32>
}
func.func @total(%x: !layout.tensor<64x64xf32>) -> !layout.tensor<64xf32> {
  %s = layout.reduce sum %x dims [1] : !layout.tensor<64x64xf32> -> !layout.tensor<64xf32>
  return %s : !layout.tensor<64xf32>
}
func.func @view(%x: !layout.tensor<6x4xf32>) -> !layout.tensor<4x6xf32, strided<[1, 4]>> {
  %p = layout.permute %x [1, 0] : !layout.tensor<6x4xf32> -> !layout.tensor<4x6xf32, strided<[1, 4]>>
  return %p : !layout.tensor<4x6xf32, strided<[1, 4]>>
}
