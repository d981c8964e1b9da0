func.func @gather_and_broadcast(%x: !layout.tensor<8192x8192xf32>, %r: !layout.tensor<1x8192xf32>, %z: !layout.tensor<3x4xf32>) -> (!layout.tensor<8192x4096xf32>, !layout.tensor<8192x8192xf32>, !layout.tensor<3x4xf32>) {
  %s = layout.slice %x dim 1 [0 : 8192 : 2] : !layout.tensor<8192x8192xf32>
  %g = layout.clone %s : !layout.tensor<8192x4096xf32, strided<[8192, 2]>>
  %e = layout.expand %r [8192, 8192] : !layout.tensor<1x8192xf32>
  %b = layout.clone %e : !layout.tensor<8192x8192xf32, strided<[0, 1]>>
  %f = layout.flip %z [0, 1] : !layout.tensor<3x4xf32>
  %c = layout.contiguous %f : !layout.tensor<3x4xf32, strided<[-4, -1], offset: 11>>
  return %g, %b, %c : !layout.tensor<8192x4096xf32>, !layout.tensor<8192x8192xf32>, !layout.tensor<3x4xf32>
}
