func.func @storage_si8(%x: !layout.storage<2xsi8>) {
  return
}
