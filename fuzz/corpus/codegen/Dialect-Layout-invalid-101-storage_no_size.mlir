func.func @storage_no_size(%x: !layout.storage<f32>) {
  return
}
