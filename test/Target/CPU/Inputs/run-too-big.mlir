func.func @big(%x: !layout.tensor<100000000000xi8>) -> !layout.tensor<100000000000xi8> {
  %c = layout.clone %x : !layout.tensor<100000000000xi8>
  return %c : !layout.tensor<100000000000xi8>
}
