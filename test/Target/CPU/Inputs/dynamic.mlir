func.func @dyn(%x: !layout.tensor<?x4xf32>) -> !layout.tensor<?x4xf32> {
  %c = layout.clone %x : !layout.tensor<?x4xf32>
  return %c : !layout.tensor<?x4xf32>
}
