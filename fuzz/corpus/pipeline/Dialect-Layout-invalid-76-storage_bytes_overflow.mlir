func.func @storage_bytes_overflow(%x: !layout.tensor<2xf32, strided<[4611686018427387904]>>) {
  return
}
