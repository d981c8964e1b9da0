// The tiny programs bench/overhead times: per-call cost, not bandwidth.
// t = x.T.contiguous() on a 4x4 f32 tensor (a transpose kernel, 64 bytes).
func.func @transpose4x4(%x: !layout.tensor<4x4xf32>) -> !layout.tensor<4x4xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x4xf32, strided<[1, 4]>>
  return %c : !layout.tensor<4x4xf32>
}

// c = x.clone() of 16 f32 elements (a memcpy kernel, 64 bytes).
func.func @copy16(%x: !layout.tensor<16xf32>) -> !layout.tensor<16xf32> {
  %c = layout.clone %x : !layout.tensor<16xf32>
  return %c : !layout.tensor<16xf32>
}

// y = x.contiguous(memory_format=torch.channels_last) of an 8x3x32x32 f32
// tensor (96 KiB, cache-resident: a transpose kernel).
func.func @nhwc(%x: !layout.tensor<8x3x32x32xf32>) -> !layout.tensor<8x3x32x32xf32, strided<[3072, 1, 96, 3]>> {
  %y = layout.contiguous %x channels_last : !layout.tensor<8x3x32x32xf32>
  return %y : !layout.tensor<8x3x32x32xf32, strided<[3072, 1, 96, 3]>>
}
