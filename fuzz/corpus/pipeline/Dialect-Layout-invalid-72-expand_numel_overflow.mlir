func.func @expand_numel_overflow(%x: !layout.tensor<1xf32>) {
  %0 = layout.expand %x [4611686018427387904, 4] : !layout.tensor<1xf32>
  return
}
