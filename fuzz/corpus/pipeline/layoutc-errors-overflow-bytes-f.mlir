func.func @f(%x: !layout.tensor<4611686018427387904xf32>) -> !layout.tensor<4611686018427387904xf32> {
  %c = layout.clone %x : !layout.tensor<4611686018427387904xf32>
  return %c : !layout.tensor<4611686018427387904xf32>
}
