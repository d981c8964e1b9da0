// RUN: layoutc %s --emit=explain | %python %S/Inputs/json_lines.py | FileCheck %s --enable-var-scope --check-prefixes=CHECK,FILE
// RUN: layoutc %s --no-opt | FileCheck %s --check-prefix=PRINT
// The printed program parses again and means the same (its locations are
// <stdin>'s, so FILE lines are not checked).
// RUN: layoutc %s --no-opt | layoutc --emit=explain | %python %S/Inputs/json_lines.py | FileCheck %s --enable-var-scope

// The code examples of the language contract (docs/language.md), as written
// there (only `T` is spelled out), parse and mean what the contract says.
// Results are checked through --emit=explain; sizes and strides are torch
// 1.13's.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// !layout.storage<24xf32>, !layout.storage<?xf32>
// !layout.tensor<2x3x4xf32>: row-major, offset 0
// !layout.tensor<4x2x3xf32, strided<[1, 12, 4], offset: 0>>: explicit layout
// !layout.tensor<?x3xf32, strided<[?, 1], offset: ?>>: dynamic
// "two spellings of the same layout are the same type, and the printer omits
// a row-major, offset-0 layout": the argument spelled with strided<[12, 4, 1],
// offset: 0> is returned as !layout.tensor<2x3x4xf32>.
// PRINT-LABEL: func.func @types
// layoutc keeps each argument's SSA name (`%s`) as its `layout.name`, which
// generated entry points name it by (docs/abi.md).
// PRINT-SAME:    (%{{.*}}: !layout.storage<24xf32> {layout.name = "s"}, %{{.*}}: !layout.storage<?xf32> {layout.name = "u"}, %{{.*}}: !layout.tensor<2x3x4xf32> {layout.name = "a"}, %{{.*}}: !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> {layout.name = "b"}, %{{.*}}: !layout.tensor<?x3xf32, strided<[?, 1], offset: ?>> {layout.name = "d"}, %{{.*}}: !layout.tensor<2x3x4xf32> {layout.name = "e"})
// PRINT-SAME:    -> (!layout.tensor<2x3x4xf32>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>)
// CHECK-LABEL: function types
// CHECK-NEXT:  result {"sizes": [2, 3, 4], "strides": [12, 4, 1], "offset": 0, "dtype": "f32", "aliases": 5, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [4, 2, 3], "strides": [1, 12, 4], "offset": 0, "dtype": "f32", "aliases": 3, "contiguous": false, "channels_last": false}
func.func @types(%s: !layout.storage<24xf32>, %u: !layout.storage<?xf32>, %a: !layout.tensor<2x3x4xf32>, %b: !layout.tensor<4x2x3xf32, strided<[1, 12, 4], offset: 0>>, %d: !layout.tensor<?x3xf32, strided<[?, 1], offset: ?>>, %e: !layout.tensor<2x3x4xf32, strided<[12, 4, 1], offset: 0>>) -> (!layout.tensor<2x3x4xf32>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4], offset: 0>>) {
  return %e, %b : !layout.tensor<2x3x4xf32>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4], offset: 0>>
}

// Element types: i1, i8, i16, i32, i64, ui8, f16, bf16, f32, f64.
// PRINT-LABEL: func.func @element_types
// PRINT-SAME:    !layout.tensor<2xi1> {{{.*}}}, %{{.*}}: !layout.tensor<2xi8> {{{.*}}}, %{{.*}}: !layout.tensor<2xi16> {{{.*}}}, %{{.*}}: !layout.tensor<2xi32> {{{.*}}}, %{{.*}}: !layout.tensor<2xi64> {{{.*}}}, %{{.*}}: !layout.tensor<2xui8> {{{.*}}}, %{{.*}}: !layout.tensor<2xf16> {{{.*}}}, %{{.*}}: !layout.tensor<2xbf16> {{{.*}}}, %{{.*}}: !layout.tensor<2xf32> {{{.*}}}, %{{.*}}: !layout.tensor<2xf64> {{{.*}}}
func.func @element_types(%a: !layout.tensor<2xi1>, %b: !layout.tensor<2xi8>, %c: !layout.tensor<2xi16>, %d: !layout.tensor<2xi32>, %e: !layout.tensor<2xi64>, %f: !layout.tensor<2xui8>, %g: !layout.tensor<2xf16>, %h: !layout.tensor<2xbf16>, %i: !layout.tensor<2xf32>, %j: !layout.tensor<2xf64>) {
  return
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

// NCHW -> NHWC: x.permute(0, 2, 3, 1) is (16, 112, 112, 64) with strides
// (64 * 112 * 112, 112, 1, 112 * 112) == (802816, 112, 1, 12544); its
// contiguous() copies into (802816, 112 * 64, 64, 1) == (802816, 7168, 64, 1).
// 16 * 64 * 112 * 112 == 12845056 f32 read and written: 12845056 * 4 * 2 ==
// 102760448 bytes.
// CHECK-LABEL: function nchw_to_nhwc
// CHECK-NEXT:  result {"sizes": [16, 112, 112, 64], "strides": [802816, 7168, 64, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "
// FILE-SAME:   language-examples.mlir:[[@LINE+7]]:8"
// CHECK-SAME:  "bytes": 102760448, "reason": "operand strides [802816, 112, 1, 12544] are not row-major", "kernel": "transpose"}
// The printer always prints the result type after `->`.
// PRINT-LABEL: func.func @nchw_to_nhwc
// PRINT:       layout.permute %{{.*}} [0, 2, 3, 1] : !layout.tensor<16x64x112x112xf32> -> !layout.tensor<16x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
func.func @nchw_to_nhwc(%x: !layout.tensor<16x64x112x112xf32>) -> !layout.tensor<16x112x112x64xf32> {
  %p = layout.permute %x [0, 2, 3, 1] : !layout.tensor<16x64x112x112xf32>
  %c = layout.contiguous %p : !layout.tensor<16x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
  return %c : !layout.tensor<16x112x112x64xf32>
}

// "an explicit `-> type` may follow and must then equal the inferred type"
// CHECK-LABEL: function explicit_result_type
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [1, 4], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": false, "channels_last": false}
func.func @explicit_result_type(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf32, strided<[1, 4]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
}

//===----------------------------------------------------------------------===//
// View ops
//===----------------------------------------------------------------------===//

// One function per example of the view-op table; T is the operand type.
// CHECK-LABEL: function view_ops
// layout.as_strided %base [3, 4] strides [4, 1] offset 0 : !layout.storage<24xf32>
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// layout.view %t [6, -1] : 2x3x4  (-1 == 24 / 6 == 4)
// CHECK-NEXT:  result {"sizes": [6, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": 1,
// layout.permute %t [2, 0, 1]
// CHECK-NEXT:  result {"sizes": [4, 2, 3], "strides": [1, 12, 4], "offset": 0, "dtype": "f32", "aliases": 1,
// layout.transpose %t 0, 2
// CHECK-NEXT:  result {"sizes": [4, 3, 2], "strides": [1, 4, 12], "offset": 0, "dtype": "f32", "aliases": 1,
// layout.transpose %t -1, 0 (negative dims wrap: the same as 2, 0)
// CHECK-NEXT:  result {"sizes": [4, 3, 2], "strides": [1, 4, 12], "offset": 0, "dtype": "f32", "aliases": 1,
// layout.movedim %t 0 to 2
// CHECK-NEXT:  result {"sizes": [3, 4, 2], "strides": [4, 1, 12], "offset": 0, "dtype": "f32", "aliases": 1,
// layout.slice %t dim 1 [1 : 100 : 2] : 4x8 (t[:, 1:100:2]; end clamps to 8)
// CHECK-NEXT:  result {"sizes": [4, 4], "strides": [8, 2], "offset": 1, "dtype": "f32", "aliases": 2,
// layout.select %t dim 1 index -1 : 3x4 (the last column, offset 3)
// CHECK-NEXT:  result {"sizes": [3], "strides": [4], "offset": 3, "dtype": "f32", "aliases": 3,
// layout.narrow %t dim 2 start 1 length 2
// CHECK-NEXT:  result {"sizes": [2, 3, 2], "strides": [12, 4, 1], "offset": 1, "dtype": "f32", "aliases": 1,
// layout.expand %t [5, -1, -1, -1] : 1x3x4 (a new leading dim of stride 0)
// CHECK-NEXT:  result {"sizes": [5, 1, 3, 4], "strides": [0, 12, 4, 1], "offset": 0, "dtype": "f32", "aliases": 4,
// layout.squeeze %t [] : 1x3x1 (all size-1 dims)
// CHECK-NEXT:  result {"sizes": [3], "strides": [1], "offset": 0, "dtype": "f32", "aliases": 5,
// layout.squeeze %t [2] : 1x3x1
// CHECK-NEXT:  result {"sizes": [1, 3], "strides": [3, 1], "offset": 0, "dtype": "f32", "aliases": 5,
// layout.unsqueeze %t dim 1 : 3x4 (new stride 4 * 1 == 4)
// CHECK-NEXT:  result {"sizes": [3, 1, 4], "strides": [4, 4, 1], "offset": 0, "dtype": "f32", "aliases": 3,
// layout.unflatten %t dim 2 [2, 2]
// CHECK-NEXT:  result {"sizes": [2, 3, 2, 2], "strides": [12, 4, 2, 1], "offset": 0, "dtype": "f32", "aliases": 1,
// layout.diagonal %t offset 1 dims 1, 2 (size min(3, 4 - 1) == 3, stride 4 + 1 == 5)
// CHECK-NEXT:  result {"sizes": [2, 3], "strides": [12, 5], "offset": 1, "dtype": "f32", "aliases": 1,
// layout.unfold %t dim 2 size 2 step 1 ((4 - 2) / 1 + 1 == 3 windows)
// CHECK-NEXT:  result {"sizes": [2, 3, 3, 2], "strides": [12, 4, 1, 1], "offset": 0, "dtype": "f32", "aliases": 1,
// layout.flip %t [0] : 3x4 (ext: negative stride, offset (3 - 1) * 4 == 8)
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [-4, 1], "offset": 8, "dtype": "f32", "aliases": 3, "contiguous": false, "channels_last": false}
// %a, %b = layout.split %t dim 0 [1, 1] : 2x3
// CHECK-NEXT:  result {"sizes": [1, 3], "strides": [3, 1], "offset": 0, "dtype": "f32", "aliases": 6,
// CHECK-NEXT:  result {"sizes": [1, 3], "strides": [3, 1], "offset": 3, "dtype": "f32", "aliases": 6,
// View ops never copy.
// CHECK-NOT:   copy
func.func @view_ops(%base: !layout.storage<24xf32>, %t: !layout.tensor<2x3x4xf32>, %t48: !layout.tensor<4x8xf32>, %t34: !layout.tensor<3x4xf32>, %t134: !layout.tensor<1x3x4xf32>, %t131: !layout.tensor<1x3x1xf32>, %t23: !layout.tensor<2x3xf32>)
    -> (!layout.tensor<3x4xf32>, !layout.tensor<6x4xf32>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, !layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>, !layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>, !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>, !layout.tensor<4x4xf32, strided<[8, 2], offset: 1>>, !layout.tensor<3xf32, strided<[4], offset: 3>>, !layout.tensor<2x3x2xf32, strided<[12, 4, 1], offset: 1>>, !layout.tensor<5x1x3x4xf32, strided<[0, 12, 4, 1]>>, !layout.tensor<3xf32>, !layout.tensor<1x3xf32>, !layout.tensor<3x1x4xf32, strided<[4, 4, 1]>>, !layout.tensor<2x3x2x2xf32>, !layout.tensor<2x3xf32, strided<[12, 5], offset: 1>>, !layout.tensor<2x3x3x2xf32, strided<[12, 4, 1, 1]>>, !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>, !layout.tensor<1x3xf32>, !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>) {
  %0 = layout.as_strided %base [3, 4] strides [4, 1] offset 0 : !layout.storage<24xf32>
  %1 = layout.view %t [6, -1] : !layout.tensor<2x3x4xf32>
  %2 = layout.permute %t [2, 0, 1] : !layout.tensor<2x3x4xf32>
  %3 = layout.transpose %t 0, 2 : !layout.tensor<2x3x4xf32>
  %4 = layout.transpose %t -1, 0 : !layout.tensor<2x3x4xf32>
  %5 = layout.movedim %t 0 to 2 : !layout.tensor<2x3x4xf32>
  %6 = layout.slice %t48 dim 1 [1 : 100 : 2] : !layout.tensor<4x8xf32>
  %7 = layout.select %t34 dim 1 index -1 : !layout.tensor<3x4xf32>
  %8 = layout.narrow %t dim 2 start 1 length 2 : !layout.tensor<2x3x4xf32>
  %9 = layout.expand %t134 [5, -1, -1, -1] : !layout.tensor<1x3x4xf32>
  %10 = layout.squeeze %t131 [] : !layout.tensor<1x3x1xf32>
  %11 = layout.squeeze %t131 [2] : !layout.tensor<1x3x1xf32>
  %12 = layout.unsqueeze %t34 dim 1 : !layout.tensor<3x4xf32>
  %13 = layout.unflatten %t dim 2 [2, 2] : !layout.tensor<2x3x4xf32>
  %14 = layout.diagonal %t offset 1 dims 1, 2 : !layout.tensor<2x3x4xf32>
  %15 = layout.unfold %t dim 2 size 2 step 1 : !layout.tensor<2x3x4xf32>
  %16 = layout.flip %t34 [0] : !layout.tensor<3x4xf32>
  %a, %b = layout.split %t23 dim 0 [1, 1] : !layout.tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %a, %b : !layout.tensor<3x4xf32>, !layout.tensor<6x4xf32>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, !layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>, !layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>, !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>, !layout.tensor<4x4xf32, strided<[8, 2], offset: 1>>, !layout.tensor<3xf32, strided<[4], offset: 3>>, !layout.tensor<2x3x2xf32, strided<[12, 4, 1], offset: 1>>, !layout.tensor<5x1x3x4xf32, strided<[0, 12, 4, 1]>>, !layout.tensor<3xf32>, !layout.tensor<1x3xf32>, !layout.tensor<3x1x4xf32, strided<[4, 4, 1]>>, !layout.tensor<2x3x2x2xf32>, !layout.tensor<2x3xf32, strided<[12, 5], offset: 1>>, !layout.tensor<2x3x3x2xf32, strided<[12, 4, 1, 1]>>, !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>, !layout.tensor<1x3xf32>, !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>
}

//===----------------------------------------------------------------------===//
// Ops that may copy
//===----------------------------------------------------------------------===//

// CHECK-LABEL: function may_copy_ops
// layout.reshape %t [6, 4] : 2x3x4 (a view: PyTorch's view succeeds)
// CHECK-NEXT:  result {"sizes": [6, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// layout.flatten %t dims 1 to 2 : 2x3x4 (a view)
// CHECK-NEXT:  result {"sizes": [2, 12], "strides": [12, 1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// layout.contiguous %t : 2x3x4 (already contiguous: the operand itself)
// CHECK-NEXT:  result {"sizes": [2, 3, 4], "strides": [12, 4, 1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// layout.contiguous %p : !layout.tensor<4x3xf32, strided<[1, 4]>> (a copy)
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [3, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// layout.contiguous %x channels_last : 2x3x4x5
// CHECK-NEXT:  result {"sizes": [2, 3, 4, 5], "strides": [60, 1, 15, 3], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": false, "channels_last": true}
// layout.contiguous %v channels_last_3d : 2x3x4x5x6 (NDHWC: (360, 1, 90, 18, 3))
// CHECK-NEXT:  result {"sizes": [2, 3, 4, 5, 6], "strides": [360, 1, 90, 18, 3], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": false, "channels_last": false}
// layout.clone %t : 3x4 (preserve), new storage even though contiguous
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// layout.clone %p : 4x3 strided<[1, 4]> (preserve keeps dense strides)
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [1, 4], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": false, "channels_last": false}
// layout.clone %p contiguous
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [3, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// layout.clone %x channels_last
// CHECK-NEXT:  result {"sizes": [2, 3, 4, 5], "strides": [60, 1, 15, 3], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": false, "channels_last": true}
// layout.to %t f16 : 3x4
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "f16", "aliases": null, "contiguous": true, "channels_last": false}
// The copies, in program order.
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}", "bytes": 96, "reason": "operand strides [1, 4] are not row-major", "kernel": "transpose"}
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}", "bytes": 960, "reason": "operand strides [60, 20, 5, 1] are not channels_last", "kernel": "transpose"}
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}", "bytes": 5760, "reason": "operand strides [360, 120, 30, 6, 1] are not channels_last_3d", "kernel": "transpose"}
// CHECK-NEXT:  copy {"op": "layout.clone", "loc": "{{.*}}", "bytes": 96, "reason": "clone always allocates new storage", "kernel": "memcpy"}
// CHECK-NEXT:  copy {"op": "layout.clone", "loc": "{{.*}}", "bytes": 96, "reason": "clone always allocates new storage", "kernel": "memcpy"}
// CHECK-NEXT:  copy {"op": "layout.clone", "loc": "{{.*}}", "bytes": 96, "reason": "clone always allocates new storage", "kernel": "transpose"}
// CHECK-NEXT:  copy {"op": "layout.clone", "loc": "{{.*}}", "bytes": 960, "reason": "clone always allocates new storage", "kernel": "transpose"}
// CHECK-NEXT:  copy {"op": "layout.to", "loc": "{{.*}}", "bytes": 72, "reason": "dtype conversion f32 -> f16", "kernel": "convert+memcpy"}
// layout.copy %src, %dst : !layout.tensor<4xf32>, !layout.tensor<3x4xf16>
// (src broadcast to (3, 4) and converted: 12 * (4 + 2) == 72 bytes)
// CHECK-NEXT:  copy {"op": "layout.copy", "loc": "{{.*}}", "bytes": 72, "reason": "writes into the destination's existing storage", "kernel": "convert+broadcast"}
// CHECK-NOT:   copy
func.func @may_copy_ops(%t: !layout.tensor<2x3x4xf32>, %t34: !layout.tensor<3x4xf32>, %x: !layout.tensor<2x3x4x5xf32>, %v: !layout.tensor<2x3x4x5x6xf32>, %src: !layout.tensor<4xf32>, %dst: !layout.tensor<3x4xf16>)
    -> (!layout.tensor<6x4xf32>, !layout.tensor<2x12xf32>, !layout.tensor<2x3x4xf32>, !layout.tensor<4x3xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x3x4x5x6xf32, strided<[360, 1, 90, 18, 3]>>, !layout.tensor<3x4xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<3x4xf16>) {
  %r = layout.reshape %t [6, 4] : !layout.tensor<2x3x4xf32>
  %f = layout.flatten %t dims 1 to 2 : !layout.tensor<2x3x4xf32>
  %c0 = layout.contiguous %t : !layout.tensor<2x3x4xf32>
  %p = layout.transpose %t34 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %p : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %n = layout.contiguous %x channels_last : !layout.tensor<2x3x4x5xf32>
  %n3 = layout.contiguous %v channels_last_3d : !layout.tensor<2x3x4x5x6xf32>
  %k = layout.clone %t34 : !layout.tensor<3x4xf32>
  %kp = layout.clone %p : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %d = layout.clone %p contiguous : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %e = layout.clone %x channels_last : !layout.tensor<2x3x4x5xf32>
  %h = layout.to %t34 f16 : !layout.tensor<3x4xf32>
  layout.copy %src, %dst : !layout.tensor<4xf32>, !layout.tensor<3x4xf16>
  return %r, %f, %c0, %c, %n, %n3, %k, %kp, %d, %e, %h : !layout.tensor<6x4xf32>, !layout.tensor<2x12xf32>, !layout.tensor<2x3x4xf32>, !layout.tensor<4x3xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x3x4x5x6xf32, strided<[360, 1, 90, 18, 3]>>, !layout.tensor<3x4xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<3x4xf16>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// Results are new row-major tensors; dtypes follow PyTorch (checked with
// torch): integer sum/prod give i64, f16/bf16 sum keeps f16/bf16, amax keeps
// the input dtype, argmax gives i64. Inputs may be any strided view.
// CHECK-LABEL: function reductions
// layout.reduce sum %t dims [1, 2] keepdim : 2x3x4 -> (2, 1, 1):(1, 1, 1)
// CHECK-NEXT:  result {"sizes": [2, 1, 1], "strides": [1, 1, 1], "offset": 0, "dtype": "f32", "aliases": null,
// mean over dim 0 of x.T (a strided input)
// CHECK-NEXT:  result {"sizes": [3], "strides": [1], "offset": 0, "dtype": "f32", "aliases": null,
// prod over all dims ([]): rank 0
// CHECK-NEXT:  result {"sizes": [], "strides": [], "offset": 0, "dtype": "f32", "aliases": null,
// amax, amin
// CHECK-NEXT:  result {"sizes": [2, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": null,
// CHECK-NEXT:  result {"sizes": [2, 3], "strides": [3, 1], "offset": 0, "dtype": "f32", "aliases": null,
// argmax over dim 1, argmin over the flattened tensor: i64
// CHECK-NEXT:  result {"sizes": [2, 4], "strides": [4, 1], "offset": 0, "dtype": "i64", "aliases": null,
// CHECK-NEXT:  result {"sizes": [], "strides": [], "offset": 0, "dtype": "i64", "aliases": null,
// integer sum and prod: i64
// CHECK-NEXT:  result {"sizes": [3], "strides": [1], "offset": 0, "dtype": "i64", "aliases": null,
// CHECK-NEXT:  result {"sizes": [4], "strides": [1], "offset": 0, "dtype": "i64", "aliases": null,
// integer amax keeps i32
// CHECK-NEXT:  result {"sizes": [4], "strides": [1], "offset": 0, "dtype": "i32", "aliases": null,
// f16 and bf16 sum keep their dtype
// CHECK-NEXT:  result {"sizes": [], "strides": [], "offset": 0, "dtype": "f16", "aliases": null,
// CHECK-NEXT:  result {"sizes": [], "strides": [], "offset": 0, "dtype": "bf16", "aliases": null,
// Reductions are not copies.
// CHECK-NOT:   copy
func.func @reductions(%t: !layout.tensor<2x3x4xf32>, %x: !layout.tensor<3x4xf32>, %i: !layout.tensor<3x4xi32>, %h: !layout.tensor<3x4xf16>, %b: !layout.tensor<3x4xbf16>)
    -> (!layout.tensor<2x1x1xf32>, !layout.tensor<3xf32>, !layout.tensor<f32>, !layout.tensor<2x4xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x4xi64>, !layout.tensor<i64>, !layout.tensor<3xi64>, !layout.tensor<4xi64>, !layout.tensor<4xi32>, !layout.tensor<f16>, !layout.tensor<bf16>) {
  %r = layout.reduce sum %t dims [1, 2] keepdim : !layout.tensor<2x3x4xf32>
  %xt = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %m = layout.reduce mean %xt dims [0] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %p = layout.reduce prod %t dims [] : !layout.tensor<2x3x4xf32>
  %mx = layout.reduce amax %t dims [1] : !layout.tensor<2x3x4xf32>
  %mn = layout.reduce amin %t dims [-1] : !layout.tensor<2x3x4xf32>
  %am = layout.reduce argmax %t dims [1] : !layout.tensor<2x3x4xf32>
  %an = layout.reduce argmin %t dims [] : !layout.tensor<2x3x4xf32>
  %is = layout.reduce sum %i dims [1] : !layout.tensor<3x4xi32>
  %ip = layout.reduce prod %i dims [0] : !layout.tensor<3x4xi32>
  %ix = layout.reduce amax %i dims [0] : !layout.tensor<3x4xi32>
  %hs = layout.reduce sum %h dims [] : !layout.tensor<3x4xf16>
  %bs = layout.reduce sum %b dims [] : !layout.tensor<3x4xbf16>
  return %r, %m, %p, %mx, %mn, %am, %an, %is, %ip, %ix, %hs, %bs : !layout.tensor<2x1x1xf32>, !layout.tensor<3xf32>, !layout.tensor<f32>, !layout.tensor<2x4xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x4xi64>, !layout.tensor<i64>, !layout.tensor<3xi64>, !layout.tensor<4xi64>, !layout.tensor<4xi32>, !layout.tensor<f16>, !layout.tensor<bf16>
}
