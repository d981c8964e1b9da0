func.func @amax_rows(%x: !layout.tensor<256x256xf32>) -> !layout.tensor<256xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<256x256xf32>
  %r = layout.reduce amax %t dims [1] : !layout.tensor<256x256xf32, strided<[1, 256]>>
  return %r : !layout.tensor<256xf32>
}
