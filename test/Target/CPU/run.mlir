// `layoutc --run` JITs each function on iota inputs and prints the results
// as PyTorch prints tensors; the expected text is what torch 1.13 prints for
// the same expressions on torch.arange inputs (noted per case).
// RUN: layoutc %s --run | FileCheck %s

// x = torch.arange(12.).reshape(3, 4); x.t(); x.t().contiguous()
// CHECK-LABEL: @transpose result 0: view of argument 0
// CHECK-NEXT: tensor({{\[}}[ 0.,  4.,  8.],
// CHECK-NEXT:         [ 1.,  5.,  9.],
// CHECK-NEXT:         [ 2.,  6., 10.],
// CHECK-NEXT:         [ 3.,  7., 11.]])
// CHECK-NEXT: @transpose result 1: new tensor
// CHECK-NEXT: tensor({{\[}}[ 0.,  4.,  8.],
// CHECK-NEXT:         [ 1.,  5.,  9.],
// CHECK-NEXT:         [ 2.,  6., 10.],
// CHECK-NEXT:         [ 3.,  7., 11.]])
func.func @transpose(%t: !layout.tensor<3x4xf32>)
    -> (!layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>) {
  %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %tt : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %tt, %c : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>
}

// torch.arange(20, dtype=torch.int32).reshape(2, 10).flip(1)
// CHECK-LABEL: @flip result 0: new tensor
// CHECK-NEXT: tensor({{\[}}[ 9,  8,  7,  6,  5,  4,  3,  2,  1,  0],
// CHECK-NEXT:         [19, 18, 17, 16, 15, 14, 13, 12, 11, 10]], dtype=torch.int32)
func.func @flip(%x: !layout.tensor<2x10xi32>) -> !layout.tensor<2x10xi32> {
  %f = layout.flip %x [1] : !layout.tensor<2x10xi32>
  %c = layout.contiguous %f : !layout.tensor<2x10xi32, strided<[10, -1], offset: 9>>
  return %c : !layout.tensor<2x10xi32>
}

// torch.arange(24.).reshape(2, 3, 4).half().sum(1) and .mean((0, 2))
// CHECK-LABEL: @sums result 0: new tensor
// CHECK-NEXT: tensor({{\[}}[12., 15., 18., 21.],
// CHECK-NEXT:         [48., 51., 54., 57.]], dtype=torch.float16)
// CHECK-NEXT: @sums result 1: new tensor
// CHECK-NEXT: tensor([ 7.5000, 11.5000, 15.5000], dtype=torch.float16)
func.func @sums(%x: !layout.tensor<2x3x4xf16>)
    -> (!layout.tensor<2x4xf16>, !layout.tensor<3xf16>) {
  %s = layout.reduce sum %x dims [1] : !layout.tensor<2x3x4xf16>
  %m = layout.reduce mean %x dims [0, 2] : !layout.tensor<2x3x4xf16>
  return %s, %m : !layout.tensor<2x4xf16>, !layout.tensor<3xf16>
}

// x = torch.arange(6).reshape(2, 3); x.T.argmax(1), x.amin()
// CHECK-LABEL: @args result 0: new tensor
// CHECK-NEXT: tensor([1, 1, 1])
// CHECK-NEXT: @args result 1: new tensor
// CHECK-NEXT: tensor(0)
func.func @args(%x: !layout.tensor<2x3xi64>) -> (!layout.tensor<3xi64>, !layout.tensor<i64>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2x3xi64>
  %a = layout.reduce argmax %t dims [1] : !layout.tensor<3x2xi64, strided<[1, 3]>>
  %m = layout.reduce amin %x dims [] : !layout.tensor<2x3xi64>
  return %a, %m : !layout.tensor<3xi64>, !layout.tensor<i64>
}

// torch.arange(3.).expand(2, 3).to(torch.bool): a broadcast fused with a
// conversion.
// CHECK-LABEL: @to_bool result 0: new tensor
// CHECK-NEXT: tensor({{\[}}[False,  True,  True],
// CHECK-NEXT:         [False,  True,  True]])
func.func @to_bool(%x: !layout.tensor<3xf32>) -> !layout.tensor<2x3xi1> {
  %e = layout.expand %x [2, 3] : !layout.tensor<3xf32>
  %b = layout.to %e i1 : !layout.tensor<2x3xf32, strided<[0, 1]>>
  return %b : !layout.tensor<2x3xi1>
}
