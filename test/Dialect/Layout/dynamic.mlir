// RUN: layout-opt %s | layout-opt | FileCheck %s --enable-var-scope

// View ops on dynamic operands. The result type says what is known for every
// size: the argument type without a layout is row-major, so its strides are
// products of its sizes, and after a permute the algebra still knows which
// dim has stride 1. A `?` in a result type is a size, stride or offset
// computed at run time (`layoutc --emit=explain` prints its expression).
// Checks that some sizes pass (x[3] needs 4 rows) move to the run time;
// dynamic-explain.test shows them.

// CHECK-LABEL: func.func @permute_keeps_unit_stride
// CHECK: layout.permute %{{.*}} [2, 0, 1] : !layout.tensor<?x?x?xf32> -> !layout.tensor<?x?x?xf32, strided<[1, ?, ?]>>
func.func @permute_keeps_unit_stride(%x: !layout.tensor<?x?x?xf32>) -> !layout.tensor<?x?x?xf32, strided<[1, ?, ?]>> {
  %p = layout.permute %x [2, 0, 1] : !layout.tensor<?x?x?xf32>
  return %p : !layout.tensor<?x?x?xf32, strided<[1, ?, ?]>>
}

// A static inner size keeps its static strides.
// CHECK-LABEL: func.func @static_inner_sizes
// CHECK: layout.transpose %{{.*}} 0, 2 : !layout.tensor<?x3x4xf32> -> !layout.tensor<4x3x?xf32, strided<[1, 4, 12]>>
func.func @static_inner_sizes(%x: !layout.tensor<?x3x4xf32>) -> !layout.tensor<4x3x?xf32, strided<[1, 4, 12]>> {
  %t = layout.transpose %x 0, 2 : !layout.tensor<?x3x4xf32>
  return %t : !layout.tensor<4x3x?xf32, strided<[1, 4, 12]>>
}

// Slicing a dynamic dim: the size is clamped at run time, the offset is a
// product of a clamped start and a size.
// CHECK-LABEL: func.func @slice_and_select
// CHECK: layout.slice %{{.*}} dim 0 [1 : 5] : !layout.tensor<?x?xf32> -> !layout.tensor<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK: layout.select %{{.*}} dim 1 index 0 : !layout.tensor<?x?xf32, strided<[?, 1], offset: ?>> -> !layout.tensor<?xf32, strided<[?], offset: ?>>
func.func @slice_and_select(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?xf32, strided<[?], offset: ?>> {
  %s = layout.slice %x dim 0 [1 : 5] : !layout.tensor<?x?xf32>
  %c = layout.select %s dim 1 index 0 : !layout.tensor<?x?xf32, strided<[?, 1], offset: ?>>
  return %c : !layout.tensor<?xf32, strided<[?], offset: ?>>
}

// A view of a row-major operand stays row-major; flatten merges dims the
// algebra proves adjacent.
// CHECK-LABEL: func.func @view_and_flatten
// CHECK: layout.view %{{.*}} [2, -1] : !layout.tensor<?x?x4xf32> -> !layout.tensor<2x?xf32>
// CHECK: layout.flatten %{{.*}} dims 1 to 2 : !layout.tensor<?x?x4xf32> -> !layout.tensor<?x?xf32>
func.func @view_and_flatten(%x: !layout.tensor<?x?x4xf32>) -> (!layout.tensor<2x?xf32>, !layout.tensor<?x?xf32>) {
  %v = layout.view %x [2, -1] : !layout.tensor<?x?x4xf32>
  %f = layout.flatten %x dims 1 to 2 : !layout.tensor<?x?x4xf32>
  return %v, %f : !layout.tensor<2x?xf32>, !layout.tensor<?x?xf32>
}

// expand of a dynamic size to 4: stride 0 when it is 1, else kept.
// CHECK-LABEL: func.func @expand_dynamic
// CHECK: layout.expand %{{.*}} [3, -1, 4] : !layout.tensor<?x?xf32> -> !layout.tensor<3x?x4xf32, strided<[0, ?, ?]>>
func.func @expand_dynamic(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<3x?x4xf32, strided<[0, ?, ?]>> {
  %e = layout.expand %x [3, -1, 4] : !layout.tensor<?x?xf32>
  return %e : !layout.tensor<3x?x4xf32, strided<[0, ?, ?]>>
}

// Copies produce row-major results; channels_last strides are products too.
// CHECK-LABEL: func.func @copies
// CHECK: layout.contiguous %{{.*}} : !layout.tensor<?x?xf32, strided<[1, ?]>> -> !layout.tensor<?x?xf32>
// CHECK: layout.clone %{{.*}} channels_last : !layout.tensor<?x3x?x?xf32> -> !layout.tensor<?x3x?x?xf32, strided<[?, 1, ?, 3]>>
// CHECK: layout.to %{{.*}} f16 : !layout.tensor<?x3x?x?xf32> -> !layout.tensor<?x3x?x?xf16>
// CHECK: layout.reduce amax %{{.*}} dims [1] keepdim : !layout.tensor<?x3x?x?xf32> -> !layout.tensor<?x1x?x?xf32>
func.func @copies(%x: !layout.tensor<?x?xf32>, %y: !layout.tensor<?x3x?x?xf32>) -> (!layout.tensor<?x?xf32>, !layout.tensor<?x3x?x?xf32, strided<[?, 1, ?, 3]>>, !layout.tensor<?x3x?x?xf16>, !layout.tensor<?x1x?x?xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<?x?xf32>
  %c = layout.contiguous %t : !layout.tensor<?x?xf32, strided<[1, ?]>>
  %l = layout.clone %y channels_last : !layout.tensor<?x3x?x?xf32>
  %h = layout.to %y f16 : !layout.tensor<?x3x?x?xf32>
  %r = layout.reduce amax %y dims [1] keepdim : !layout.tensor<?x3x?x?xf32>
  return %c, %l, %h, %r : !layout.tensor<?x?xf32>, !layout.tensor<?x3x?x?xf32, strided<[?, 1, ?, 3]>>, !layout.tensor<?x3x?x?xf16>, !layout.tensor<?x1x?x?xf32>
}

// clone and to keep the strides of a view that is a permutation of a dense
// layout for every size (PyTorch's preserve_format).
// CHECK-LABEL: func.func @preserve_permuted
// CHECK: layout.to %{{.*}} f16 : !layout.tensor<?x?x?x?xf32, strided<[?, 1, ?, ?]>> -> !layout.tensor<?x?x?x?xf16, strided<[?, 1, ?, ?]>>
func.func @preserve_permuted(%x: !layout.tensor<?x?x?x?xf32>) -> !layout.tensor<?x?x?x?xf16, strided<[?, 1, ?, ?]>> {
  %p = layout.permute %x [0, 3, 1, 2] : !layout.tensor<?x?x?x?xf32>
  %h = layout.to %p f16 : !layout.tensor<?x?x?x?xf32, strided<[?, 1, ?, ?]>>
  return %h : !layout.tensor<?x?x?x?xf16, strided<[?, 1, ?, ?]>>
}
