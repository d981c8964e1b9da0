// RUN: layout-opt %s | layout-opt | FileCheck %s --enable-var-scope
// RUN: layout-opt %s --mlir-print-op-generic | layout-opt | FileCheck %s --enable-var-scope

// The !layout.tensor and !layout.storage types. A tensor type is its
// (sizes, strides, offset, element type): the printer omits a row-major,
// offset-0 layout (PyTorch's contiguous strides, size-0 dims counting as 1)
// and prints any other layout as a builtin strided<[...], offset: ...>
// attribute (the offset only when it is not 0).

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @element_types(
//  CHECK-SAME:     !layout.tensor<2xi1>
//  CHECK-SAME:     !layout.tensor<2xi8>
//  CHECK-SAME:     !layout.tensor<2xi16>
//  CHECK-SAME:     !layout.tensor<2xi32>
//  CHECK-SAME:     !layout.tensor<2xi64>
//  CHECK-SAME:     !layout.tensor<2xui8>
//  CHECK-SAME:     !layout.tensor<2xf16>
//  CHECK-SAME:     !layout.tensor<2xbf16>
//  CHECK-SAME:     !layout.tensor<2xf32>
//  CHECK-SAME:     !layout.tensor<2xf64>)
func.func @element_types(%a: !layout.tensor<2xi1>, %b: !layout.tensor<2xi8>,
                         %c: !layout.tensor<2xi16>, %d: !layout.tensor<2xi32>,
                         %e: !layout.tensor<2xi64>, %f: !layout.tensor<2xui8>,
                         %g: !layout.tensor<2xf16>, %h: !layout.tensor<2xbf16>,
                         %i: !layout.tensor<2xf32>, %j: !layout.tensor<2xf64>) {
  return
}

// CHECK-LABEL: func @storage_element_types(
//  CHECK-SAME:     !layout.storage<4xi1>
//  CHECK-SAME:     !layout.storage<4xi8>
//  CHECK-SAME:     !layout.storage<4xi16>
//  CHECK-SAME:     !layout.storage<4xi32>
//  CHECK-SAME:     !layout.storage<4xi64>
//  CHECK-SAME:     !layout.storage<4xui8>
//  CHECK-SAME:     !layout.storage<4xf16>
//  CHECK-SAME:     !layout.storage<4xbf16>
//  CHECK-SAME:     !layout.storage<4xf32>
//  CHECK-SAME:     !layout.storage<4xf64>)
func.func @storage_element_types(%a: !layout.storage<4xi1>, %b: !layout.storage<4xi8>,
                                 %c: !layout.storage<4xi16>, %d: !layout.storage<4xi32>,
                                 %e: !layout.storage<4xi64>, %f: !layout.storage<4xui8>,
                                 %g: !layout.storage<4xf16>, %h: !layout.storage<4xbf16>,
                                 %i: !layout.storage<4xf32>, %j: !layout.storage<4xf64>) {
  return
}

// The element type is part of the type: a view of an i8 storage is an i8
// tensor.
// CHECK-LABEL: func @element_type_flows(
//       CHECK:   layout.as_strided %{{.*}} [2, 3] strides [3, 1] offset 0 : !layout.storage<6xui8> -> !layout.tensor<2x3xui8>
//       CHECK:   layout.transpose %{{.*}} 0, 1 : !layout.tensor<2x3xbf16> -> !layout.tensor<3x2xbf16, strided<[1, 3]>>
func.func @element_type_flows(%s: !layout.storage<6xui8>, %t: !layout.tensor<2x3xbf16>) {
  %a = layout.as_strided %s [2, 3] strides [3, 1] offset 0 : !layout.storage<6xui8>
  %b = layout.transpose %t 0, 1 : !layout.tensor<2x3xbf16>
  return
}

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @storage(
//  CHECK-SAME:     !layout.storage<24xf32>
//  CHECK-SAME:     !layout.storage<?xf16>
//  CHECK-SAME:     !layout.storage<0xi8>)
func.func @storage(%a: !layout.storage<24xf32>, %b: !layout.storage<?xf16>, %c: !layout.storage<0xi8>) {
  return
}

//===----------------------------------------------------------------------===//
// Rank 0 and size-0 dims
//===----------------------------------------------------------------------===//

// A rank-0 tensor has no strides; a non-zero offset is still printed.
// CHECK-LABEL: func @rank0(
//  CHECK-SAME:     !layout.tensor<f32>
//  CHECK-SAME:     !layout.tensor<i64, strided<[], offset: 5>>
//  CHECK-SAME:     -> !layout.tensor<f32>
func.func @rank0(%a: !layout.tensor<f32>, %b: !layout.tensor<i64, strided<[], offset: 5>>)
    -> !layout.tensor<f32, strided<[], offset: 0>> {
  return %a : !layout.tensor<f32, strided<[]>>
}

// Row-major strides count a size-0 dim as 1 (torch.empty(2, 0, 3).stride()
// is (3, 3, 1)), so strided<[3, 3, 1]> is the default and is not printed;
// strides [0, 3, 1] are another layout.
// CHECK-LABEL: func @size_zero(
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<2x0x3xf32>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<2x0x3xf32>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<2x0x3xf32, strided<[0, 3, 1]>>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<0xf32>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<0x4xf32, strided<[4, 1], offset: 7>>)
func.func @size_zero(%a: !layout.tensor<2x0x3xf32>, %b: !layout.tensor<2x0x3xf32, strided<[3, 3, 1]>>,
                     %c: !layout.tensor<2x0x3xf32, strided<[0, 3, 1]>>, %d: !layout.tensor<0xf32>,
                     %e: !layout.tensor<0x4xf32, strided<[4, 1], offset: 7>>) {
  return
}

//===----------------------------------------------------------------------===//
// Dynamic sizes, strides and offsets
//===----------------------------------------------------------------------===//

// The row-major strides of ?x3 are [3, 1] and of 3x? are [?, 1]: both are
// omitted. Any other `?` layout is printed.
// CHECK-LABEL: func @dynamic(
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<?x3xf32>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<?x3xf32>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<3x?xf32>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<?x3xf32, strided<[?, 1], offset: ?>>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<4xf32, strided<[1], offset: ?>>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<?x?xf32>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<?x?xf32, strided<[1, ?]>>)
func.func @dynamic(%a: !layout.tensor<?x3xf32>, %b: !layout.tensor<?x3xf32, strided<[3, 1], offset: 0>>,
                   %c: !layout.tensor<3x?xf32, strided<[?, 1]>>,
                   %d: !layout.tensor<?x3xf32, strided<[?, 1], offset: ?>>,
                   %e: !layout.tensor<4xf32, strided<[1], offset: ?>>,
                   %f: !layout.tensor<?x?xf32, strided<[?, 1]>>,
                   %g: !layout.tensor<?x?xf32, strided<[1, ?]>>) {
  return
}

//===----------------------------------------------------------------------===//
// One type, several spellings
//===----------------------------------------------------------------------===//

// The three spellings of row-major (3, 4) at offset 0 are one type: the
// function type, the return operand types and the op types must all be equal
// for this to verify, and all print the short form.
// CHECK-LABEL: func @same_type(
//  CHECK-SAME:     %[[X:[^:]*]]: !layout.tensor<3x4xf32>, %[[Y:[^:]*]]: !layout.tensor<3x4xf32>)
//  CHECK-SAME:     -> (!layout.tensor<3x4xf32>, !layout.tensor<3x4xf32>)
//       CHECK:   %[[C:.*]] = layout.contiguous %[[X]] : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32>
//       CHECK:   return %[[C]], %[[Y]] : !layout.tensor<3x4xf32>, !layout.tensor<3x4xf32>
func.func @same_type(%x: !layout.tensor<3x4xf32, strided<[4, 1], offset: 0>>, %y: !layout.tensor<3x4xf32, strided<[4, 1]>>)
    -> (!layout.tensor<3x4xf32>, !layout.tensor<3x4xf32, strided<[4, 1]>>) {
  %c = layout.contiguous %x : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[4, 1], offset: 0>>
  return %c, %y : !layout.tensor<3x4xf32, strided<[4, 1], offset: 0>>, !layout.tensor<3x4xf32>
}

// Likewise for a non-default layout: `offset: 0` may be spelled or not.
// CHECK-LABEL: func @same_type_strided(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<4x3xf32, strided<[1, 4]>>) -> !layout.tensor<4x3xf32, strided<[1, 4]>>
//       CHECK:   return %[[X]] : !layout.tensor<4x3xf32, strided<[1, 4]>>
func.func @same_type_strided(%x: !layout.tensor<4x3xf32, strided<[1, 4], offset: 0>>) -> !layout.tensor<4x3xf32, strided<[1, 4]>> {
  return %x : !layout.tensor<4x3xf32, strided<[1, 4]>>
}

// A size-1 dim's stride is part of the layout: (1, 4):(1, 1) is contiguous
// to PyTorch but it is not the row-major (1, 4):(4, 1), so it is another
// type and prints its strides.
// CHECK-LABEL: func @size_one_strides(
//  CHECK-SAME:     !layout.tensor<1x4xf32>,
//  CHECK-SAME:     !layout.tensor<1x4xf32, strided<[1, 1]>>)
func.func @size_one_strides(%a: !layout.tensor<1x4xf32, strided<[4, 1]>>, %b: !layout.tensor<1x4xf32, strided<[1, 1]>>) {
  return
}

//===----------------------------------------------------------------------===//
// Negative and zero strides
//===----------------------------------------------------------------------===//

// (ext) Negative strides: a flipped view starts at the last element along
// the flipped dim (offset 2 * 4 = 8) and walks back. Stride 0 repeats.
// numpy: np.flip(np.empty((3, 4)), 0) -> element strides (-4, 1), offset 8
// CHECK-LABEL: func @negative_strides(
//  CHECK-SAME:     %[[X:[^:]*]]: !layout.tensor<3x4xf32>, %[[N:[^:]*]]: !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>,
//  CHECK-SAME:     %{{[^:]*}}: !layout.tensor<3x4xf32, strided<[0, 1]>>)
//  CHECK-SAME:     -> !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
//       CHECK:   %[[F:.*]] = layout.flip %[[X]] [0] : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
//       CHECK:   return %[[F]]
func.func @negative_strides(%x: !layout.tensor<3x4xf32>, %n: !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>,
                            %z: !layout.tensor<3x4xf32, strided<[0, 1]>>) -> !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>> {
  %f = layout.flip %x [0] : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
  return %f : !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
}

//===----------------------------------------------------------------------===//
// Explicit result types
//===----------------------------------------------------------------------===//

// `-> type` is accepted when it equals the inferred type, in any spelling,
// and is always printed.
// CHECK-LABEL: func @explicit_result_type(
//       CHECK:   layout.view %{{.*}} [4, 3] : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32>
//       CHECK:   layout.select %{{.*}} dim 0 index 2 : !layout.tensor<3x4xf32> -> !layout.tensor<4xf32, strided<[1], offset: 8>>
//       CHECK:   layout.to %{{.*}} i8 : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xi8>
func.func @explicit_result_type(%x: !layout.tensor<3x4xf32>) {
  %a = layout.view %x [4, 3] : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[3, 1], offset: 0>>
  %b = layout.select %x dim 0 index 2 : !layout.tensor<3x4xf32> -> !layout.tensor<4xf32, strided<[1], offset: 8>>
  %c = layout.to %x i8 : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xi8>
  return
}
