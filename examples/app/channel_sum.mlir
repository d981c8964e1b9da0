// x.sum(dim=(0, 2, 3)) for a 2x3x16x16 NCHW batch: one sum per channel, as
// batch norm's statistics need. The reduction reads the strided input
// directly; its result is a new 3-element tensor.
func.func @channel_sum(%x: !layout.tensor<2x3x16x16xf32>)
    -> !layout.tensor<3xf32> {
  %s = layout.reduce sum %x dims [0, 2, 3] : !layout.tensor<2x3x16x16xf32>
  return %s : !layout.tensor<3xf32>
}
