// A view of a run-time view returned: the copy, with the view's layout,
// where PyTorch copies; the argument's view (result0_view) elsewhere.
func.func @viewed(%x: !layout.tensor<?x?x?xf32>) -> !layout.tensor<?x?xf32, strided<[?, ?]>> {
  %t = layout.transpose %x 1, 2 : !layout.tensor<?x?x?xf32>
  %f = layout.flatten %t dims 1 to 2 : !layout.tensor<?x?x?xf32, strided<[?, 1, ?]>>
  %v = layout.transpose %f 0, 1 : !layout.tensor<?x?xf32, strided<[?, ?]>>
  return %v : !layout.tensor<?x?xf32, strided<[?, ?]>>
}
