func.func @i8(%x: !layout.tensor<8191x4097xi8>) -> !layout.tensor<4097x8191xi8> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<8191x4097xi8>
  %c = layout.contiguous %t : !layout.tensor<4097x8191xi8, strided<[1, 4097]>>
  return %c : !layout.tensor<4097x8191xi8>
}
