// x.contiguous(memory_format=torch.channels_last) for a 2x3x16x16 NCHW batch:
// the same logical tensor (sizes N, C, H, W), stored N, H, W, C (strides
// 768, 1, 48, 3). One transpose-family copy; the caller allocates the result.
func.func @nchw_to_nhwc(%x: !layout.tensor<2x3x16x16xf32>)
    -> !layout.tensor<2x3x16x16xf32, strided<[768, 1, 48, 3]>> {
  %y = layout.contiguous %x channels_last : !layout.tensor<2x3x16x16xf32>
  return %y : !layout.tensor<2x3x16x16xf32, strided<[768, 1, 48, 3]>>
}
