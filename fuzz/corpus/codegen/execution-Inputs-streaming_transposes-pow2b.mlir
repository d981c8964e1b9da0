func.func @pow2b(%x: !layout.tensor<64x4096xi8>) -> !layout.tensor<4096x64xi8> {
  %v = layout.permute %x [1, 0] : !layout.tensor<64x4096xi8>
  %c = layout.contiguous %v : !layout.tensor<4096x64xi8, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x64xi8>
}
