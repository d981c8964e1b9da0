func.func @s(%s: !layout.storage<?xf32>, %x: !layout.tensor<?xf32>) -> !layout.tensor<?xf32> {
  %c = layout.clone %x : !layout.tensor<?xf32>
  return %c : !layout.tensor<?xf32>
}
