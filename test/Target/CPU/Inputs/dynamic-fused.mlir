func.func @f(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?x?xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<?x?xf32>
  %c = layout.clone %t contiguous : !layout.tensor<?x?xf32, strided<[1, ?]>>
  %h = layout.to %c f16 : !layout.tensor<?x?xf32>
  return %h : !layout.tensor<?x?xf16>
}
