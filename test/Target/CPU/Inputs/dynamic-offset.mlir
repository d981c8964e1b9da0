func.func @o(%y: !layout.tensor<?xf32>, %x: !layout.tensor<?xf32, strided<[1], offset: ?>>) -> !layout.tensor<?xf32> {
  %c = layout.clone %x : !layout.tensor<?xf32, strided<[1], offset: ?>>
  return %c : !layout.tensor<?xf32>
}
