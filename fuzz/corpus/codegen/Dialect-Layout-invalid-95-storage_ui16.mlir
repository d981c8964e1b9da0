func.func @storage_ui16(%x: !layout.storage<2xui16>) {
  return
}
