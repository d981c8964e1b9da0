// NCHW -> NHWC of any batch and image size with 3 channels.
func.func @rgb(%x: !layout.tensor<?x3x?x?xi8>) -> !layout.tensor<?x?x?x3xi8> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<?x3x?x?xi8>
  %c = layout.contiguous %v : !layout.tensor<?x?x?x3xi8, strided<[?, ?, 1, ?]>>
  return %c : !layout.tensor<?x?x?x3xi8>
}
