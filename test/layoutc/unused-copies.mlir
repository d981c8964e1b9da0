// A copy whose result nothing returned or written depends on is removed by
// the pipeline; layoutc warns at each, so the copy its author wrote does not
// vanish silently. layout.copy writes its destination and is never removed,
// and views and reductions get no warning.
// RUN: layoutc %s -o %t.mlir 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=PLANNED < %t.mlir
// --no-opt removes nothing and warns about nothing.
// RUN: layoutc %s --no-opt -o /dev/null 2>&1 | count 0

// CHECK: unused-copies.mlir:[[@LINE+2]]:8: warning: result of 'layout.contiguous' is unused, so it is removed: nothing is copied
func.func @dead(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32> {
  %c = layout.contiguous %x : !layout.tensor<3x4xf32>
  return %x : !layout.tensor<3x4xf32>
}

// Read only by views that are themselves unused, and by another removed
// copy.
// CHECK: unused-copies.mlir:[[@LINE+5]]:8: warning: result of 'layout.clone' is unused (only ops whose results are unused read it), so it is removed: nothing is copied
// CHECK: unused-copies.mlir:[[@LINE+5]]:8: warning: result of 'layout.to' is unused, so it is removed: nothing is copied
// CHECK: unused-copies.mlir:[[@LINE+5]]:8: warning: result of 'layout.reshape' is unused (only ops whose results are unused read it), so it is removed: nothing is copied
// CHECK: unused-copies.mlir:[[@LINE+5]]:8: warning: result of 'layout.flatten' is unused, so it is removed: nothing is copied
func.func @chains(%x: !layout.tensor<3x4xf32>) {
  %c = layout.clone %x : !layout.tensor<3x4xf32>
  %h = layout.to %c f16 : !layout.tensor<3x4xf32>
  %r = layout.reshape %c [12] : !layout.tensor<3x4xf32>
  %f = layout.flatten %r dims 0 to 0 : !layout.tensor<12xf32>
  %t = layout.transpose %c 0, 1 : !layout.tensor<3x4xf32>
  %s = layout.select %r dim 0 index 1 : !layout.tensor<12xf32>
  return
}

// The removed copies are gone from the planned program.
// PLANNED-LABEL: func.func @dead
// PLANNED-NOT: layout.materialize
// PLANNED-LABEL: func.func @chains
// PLANNED-NOT: layout.materialize
// PLANNED: return

// No warning: the clone feeds a write, the contiguous a result (through a
// view), the reduction stays.
// PLANNED-LABEL: func.func @live
// PLANNED: layout.reduce
// PLANNED: layout.copy
// PLANNED: layout.materialize
func.func @live(%x: !layout.tensor<3x4xf32>, %d: !layout.tensor<3x4xf16>)
    -> !layout.tensor<3x4xf32, strided<[1, 3]>> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<3x4xf32>
  %c = layout.clone %x : !layout.tensor<3x4xf32>
  layout.copy %c, %d : !layout.tensor<3x4xf32>, !layout.tensor<3x4xf16>
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %k = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %kt = layout.transpose %k 0, 1 : !layout.tensor<4x3xf32>
  return %kt : !layout.tensor<3x4xf32, strided<[1, 3]>>
}
