func.func @rows(%x: !layout.tensor<4x6x8xf32>) -> !layout.tensor<6x4x8xf32> {
  %p = layout.permute %x [1, 0, 2] : !layout.tensor<4x6x8xf32>
  %c = layout.contiguous %p : !layout.tensor<6x4x8xf32, strided<[8, 48, 1]>>
  return %c : !layout.tensor<6x4x8xf32>
}
