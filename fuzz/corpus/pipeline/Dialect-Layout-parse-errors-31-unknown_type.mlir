func.func @unknown_type(%x: !layout.buffer<4xf32>) {
  return
}
