func.func @r4(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4096x4096xf32>
  %r = layout.reduce amax %v dims [1] : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %r : !layout.tensor<4096xf32>
}
