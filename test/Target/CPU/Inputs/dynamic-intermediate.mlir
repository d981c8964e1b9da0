func.func @i(%x: !layout.tensor<?x?xf32>) -> (!layout.tensor<?x?xf16>, !layout.tensor<?x?xf64>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<?x?xf32>
  %c = layout.clone %t contiguous : !layout.tensor<?x?xf32, strided<[1, ?]>>
  %h = layout.to %c f16 : !layout.tensor<?x?xf32>
  %d = layout.to %c f64 : !layout.tensor<?x?xf32>
  return %h, %d : !layout.tensor<?x?xf16>, !layout.tensor<?x?xf64>
}
