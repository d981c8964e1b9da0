// Run-time tiles with a loop inside b-blocks (rtBlocks): a dynamic P7
// (permute [3, 2, 1, 0], every size `?`) has a loop that continues the
// source rows but not the destination rows, so its chunk function chooses
// per chunk between the `__blocks` variant (beyond L2, tiles that store
// normally) and the plain `__tiles`, whose blocks run the block's tiles
// through the same square function. P8's permutation has no such loop (the
// loop continuing its source rows continues its destination rows too): no
// `__blocks`. Element checks: dynamic_exec.py (P7 at 33x29x31x27) and
// streaming-transposes-runtime-extents.test (reverse4).
// RUN: layoutc %s --emit=llvm | FileCheck %s

// CHECK-LABEL: define internal void @p7__kernel0(
// CHECK: call void @p7__kernel0__blocks(ptr %0, i64 %1, i64 %2)
// CHECK: call void @p7__kernel0__tiles(ptr %0, i64 %1, i64 %2)
// CHECK-LABEL: define internal void @p7__kernel0__blocks(
// CHECK: call void @p7__kernel0__square(
// CHECK-LABEL: define ptr @p7_raw(
func.func @p7(%x: !layout.tensor<?x?x?x?xf32>) -> !layout.tensor<?x?x?x?xf32> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<?x?x?x?xf32>
  %c = layout.contiguous %v : !layout.tensor<?x?x?x?xf32, strided<[1, ?, ?, ?]>>
  return %c : !layout.tensor<?x?x?x?xf32>
}

// CHECK-LABEL: define internal void @p8__kernel0(
// CHECK-NOT: __blocks
// CHECK: define ptr @p8_raw(
func.func @p8(%x: !layout.tensor<?x?x?x?x?xf32>) -> !layout.tensor<?x?x?x?x?xf32> {
  %v = layout.permute %x [4, 2, 0, 3, 1] : !layout.tensor<?x?x?x?x?xf32>
  %c = layout.contiguous %v : !layout.tensor<?x?x?x?x?xf32, strided<[1, ?, ?, ?, ?]>>
  return %c : !layout.tensor<?x?x?x?x?xf32>
}
