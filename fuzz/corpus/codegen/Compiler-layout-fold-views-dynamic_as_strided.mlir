func.func @dynamic_as_strided(%x: !layout.tensor<3x4xf32>, %s: !layout.storage<24xf32>, %n: index, %st: index, %o: index) -> (!layout.tensor<?x2xf32, strided<[?, 1], offset: ?>>, !layout.tensor<?xf32, strided<[1]>>, !layout.tensor<2xf32, strided<[1], offset: ?>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %a = layout.as_strided %t [%n, 2] strides [%st, 1] offset %o : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %b0 = layout.as_strided %s [%n] strides [1] offset 0 : !layout.storage<24xf32>
  %b1 = layout.as_strided %b0 [2] strides [1] offset %o : !layout.tensor<?xf32, strided<[1]>>
  return %a, %b0, %b1 : !layout.tensor<?x2xf32, strided<[?, 1], offset: ?>>, !layout.tensor<?xf32, strided<[1]>>, !layout.tensor<2xf32, strided<[1], offset: ?>>
}
