func.func @as_strided_clone_out_of_bounds(%x: !layout.tensor<3x4xi1, strided<[1, 3]>>) {
  %c = layout.clone %x : !layout.tensor<3x4xi1, strided<[1, 3]>>
  %0 = layout.as_strided %c [2, 2] strides [12, 1] offset 0 : !layout.tensor<3x4xi1, strided<[1, 3]>>
  return
}
