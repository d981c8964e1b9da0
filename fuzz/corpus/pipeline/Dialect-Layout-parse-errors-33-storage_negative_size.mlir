func.func @storage_negative_size(%x: !layout.storage<-1xf32>) {
  return
}
