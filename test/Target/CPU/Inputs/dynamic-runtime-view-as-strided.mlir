// An as_strided of a run-time view reads the argument's storage where
// PyTorch views and the copy's where it copies: returning it is an error.
func.func @strided(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<2xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<?x?xf32>
  %f = layout.flatten %t dims 0 to 1 : !layout.tensor<?x?xf32, strided<[1, ?]>>
  %s = layout.as_strided %f [2] strides [1] offset 0 : !layout.tensor<?xf32, strided<[?]>>
  return %s : !layout.tensor<2xf32>
}
