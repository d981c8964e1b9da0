// A flatten that PyTorch views for some sizes and copies for others, read by
// a reduction: a run-time view.
func.func @summed(%x: !layout.tensor<?x?x?xf32>) -> !layout.tensor<?xf32> {
  %t = layout.transpose %x 1, 2 : !layout.tensor<?x?x?xf32>
  %f = layout.flatten %t dims 1 to 2 : !layout.tensor<?x?x?xf32, strided<[?, 1, ?]>>
  %s = layout.reduce sum %f dims [1] : !layout.tensor<?x?xf32, strided<[?, ?]>>
  return %s : !layout.tensor<?xf32>
}
