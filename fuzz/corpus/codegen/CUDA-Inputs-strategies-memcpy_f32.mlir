func.func @memcpy_f32(%x: !layout.tensor<1001xf32>) -> !layout.tensor<1001xf32> {
  %c = layout.clone %x : !layout.tensor<1001xf32>
  return %c : !layout.tensor<1001xf32>
}
