func.func @tensor_numel_overflow(%x: !layout.tensor<4611686018427387904x4xf32>) {
  return
}
