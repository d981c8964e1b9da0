func.func @storage(%a: !layout.storage<24xf32>, %b: !layout.storage<?xf16>, %c: !layout.storage<0xi8>) {
  return
}
