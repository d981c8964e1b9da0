func.func @write_into(%x: !layout.tensor<8xi8>, %s: !layout.storage<16xi1>) {
  %v = layout.as_strided %s [8] strides [2] offset 1 : !layout.storage<16xi1>
  layout.copy %x, %v : !layout.tensor<8xi8>, !layout.tensor<8xi1, strided<[2], offset: 1>>
  return
}
