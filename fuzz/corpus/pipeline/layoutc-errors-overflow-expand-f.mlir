func.func @f(%x: !layout.tensor<3x4xf32>) {
  %e = layout.expand %x [4611686018427387904, 4611686018427387904, 3, 4] : !layout.tensor<3x4xf32>
  return
}
