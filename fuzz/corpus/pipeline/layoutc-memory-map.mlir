func.func @transpose(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf32, strided<[1, 4]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  return %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
}

func.func @as_strided(%s: !layout.storage<12xf32>) -> (!layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>) {
  %a = layout.as_strided %s [2, 2] strides [4, 2] offset 0 : !layout.storage<12xf32>
  %b = layout.as_strided %s [2, 2] strides [4, 2] offset 1 : !layout.storage<12xf32>
  return %a, %b : !layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}

func.func @as_strided_of_tensor(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %a = layout.as_strided %t [2, 2] strides [4, 2] offset 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %a : !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}

func.func @expand(%x: !layout.tensor<3xf32>) -> !layout.tensor<2x3xf32, strided<[0, 1]>> {
  %e = layout.expand %x [2, 3] : !layout.tensor<3xf32>
  return %e : !layout.tensor<2x3xf32, strided<[0, 1]>>
}

func.func @unfold(%x: !layout.tensor<5xf32>) -> !layout.tensor<3x3xf32, strided<[1, 1]>> {
  %w = layout.unfold %x dim 0 size 3 step 1 : !layout.tensor<5xf32>
  return %w : !layout.tensor<3x3xf32, strided<[1, 1]>>
}

func.func @scalar(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<f32, strided<[], offset: 6>> {
  %r = layout.select %x dim 0 index 1 : !layout.tensor<3x4xf32>
  %s = layout.select %r dim 0 index 2 : !layout.tensor<4xf32, strided<[1], offset: 4>>
  return %s : !layout.tensor<f32, strided<[], offset: 6>>
}

func.func @flip(%x: !layout.tensor<5xf32>) -> !layout.tensor<3xf32, strided<[-2], offset: 4>> {
  %f = layout.flip %x [0] : !layout.tensor<5xf32>
  %s = layout.slice %f dim 0 [0 : 5 : 2] : !layout.tensor<5xf32, strided<[-1], offset: 4>>
  return %s : !layout.tensor<3xf32, strided<[-2], offset: 4>>
}

func.func @rank3(%x: !layout.tensor<2x3x4xf32>) -> !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> {
  %p = layout.permute %x [2, 0, 1] : !layout.tensor<2x3x4xf32>
  return %p : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
}

func.func @copy(%x: !layout.tensor<2x3xf32>) -> !layout.tensor<3x2xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2x3xf32>
  %c = layout.contiguous %t : !layout.tensor<3x2xf32, strided<[1, 3]>>
  return %c : !layout.tensor<3x2xf32>
}

func.func @empty(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<0x4xf32, strided<[4, 1], offset: 8>> {
  %e = layout.slice %x dim 0 [2 : 2 : 1] : !layout.tensor<3x4xf32>
  return %e : !layout.tensor<0x4xf32, strided<[4, 1], offset: 8>>
}

func.func @large(%x: !layout.tensor<20x20xf32>) -> !layout.tensor<20x20xf32, strided<[1, 20]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<20x20xf32>
  return %t : !layout.tensor<20x20xf32, strided<[1, 20]>>
}
