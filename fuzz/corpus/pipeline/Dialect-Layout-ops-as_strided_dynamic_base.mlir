func.func @as_strided_dynamic_base(%x: !layout.tensor<?x4xf16>, %n: index) {
  %a = layout.as_strided %x [2, 2] strides [1, 1] offset 0 : !layout.tensor<?x4xf16>
  %b = layout.as_strided %x [%n] strides [4] offset 1 : !layout.tensor<?x4xf16>
  return
}
