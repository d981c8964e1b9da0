// --runtime-extents: the chunk functions read every loop size and every
// stride other than an exact 0 or 1 from the extents array ctx[3] points to
// (CPUKernels.h, kExt*); only the raw entry point holds the plan's values.
// The sizes (1237, 1553, 1361) and strides are chosen to appear nowhere else.
// RUN: layoutc %s --emit=llvm --runtime-extents | FileCheck %s
// RUN: layoutc %s --emit=llvm | FileCheck %s --check-prefix=STATIC
// RUN: layoutc %s --emit=llvm --runtime-extents -O0 | FileCheck %s --check-prefix=SHORT

// The transpose's chunk: extents come from loads through ctx[3] (byte 24).
// It picks a plane variant per chunk and calls its function, which reads
// the context again; the variants call one function per square variant:
// source and destination addresses, b's source and a's destination strides
// as parameters (and a masked square's rows and columns). None holds an
// extent.
// CHECK-LABEL: define internal void @transpose__kernel0(
// CHECK: %[[EXT:[0-9]+]] = load ptr, ptr %{{[0-9]+}}
// CHECK: load i64, ptr
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1237|1553|1236|1552|6212|4948)[^0-9]}}
// CHECK: call fastcc void @transpose__kernel0__skewed(ptr {{.*}}%0, i64 %1, i64 %2)
// CHECK: call fastcc void @transpose__kernel0__tiles(ptr {{.*}}%0, i64 %1, i64 %2)
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1237|1553|1236|1552|6212|4948)[^0-9]}}
// CHECK-LABEL: define internal fastcc void @transpose__kernel0__skewed(
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1237|1553|1236|1552|6212|4948)[^0-9]}}
// CHECK: call fastcc void @transpose__kernel0__masked(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1237|1553|1236|1552|6212|4948)[^0-9]}}
// A masked square loads masked and stores each destination row whole or
// in pieces of 4, 2 and 1 lanes (no masked store: microcoded on AMD Zen).
// CHECK-LABEL: define internal fastcc void @transpose__kernel0__masked(
// CHECK-NOT: @llvm.masked.store
// CHECK: call <8 x float> @llvm.masked.load.v8f32.p0(
// CHECK-NOT: @llvm.masked.store
// CHECK: store <8 x float>
// CHECK-NEXT: br label
// CHECK: store <4 x float>
// CHECK: store <2 x float>
// CHECK: store <1 x float>
// CHECK-NOT: @llvm.masked.store
// CHECK: ret void
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1237|1553|1236|1552|6212|4948)[^0-9]}}
// CHECK-LABEL: define internal fastcc void @transpose__kernel0__tiles(
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1237|1553|1236|1552|6212|4948)[^0-9]}}
// CHECK: call fastcc void @transpose__kernel0__square(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}})
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1237|1553|1236|1552|6212|4948)[^0-9]}}
// CHECK-LABEL: define internal fastcc void @transpose__kernel0__square(
// CHECK-NOT: call
// CHECK: ret void
// CHECK-LABEL: define internal fastcc void @transpose__kernel0__lines4(
// CHECK: store <{{[0-9]+}} x float> {{.*}}!nontemporal
// The raw entry point fills the extents (LLVM merges the stores).
// CHECK-LABEL: define ptr @transpose_raw(
// CHECK: store {{.*}}i64 1553, i64 1, i64 1237
// The plan splits b (1237) for skewed tiles, and so do these kernels, in
// whole destination lines: 32 floats a chunk here, where 15 MiB of traffic
// makes no streaming stores (skewed tiles would take 1 to 16 lines).
// CHECK: call ptr @lrt_parallel_for(ptr %{{[0-9]+}}, i64 1237, i64 32, ptr nonnull @transpose__kernel0
// STATIC-LABEL: define internal void @transpose__kernel0(
// The static kernel bakes in the row strides in bytes (1553 * 4, 1237 * 4).
// STATIC: {{[^a-zA-Z$._0-9%](6212|4948)[^0-9]}}
func.func @transpose(%x: !layout.tensor<1237x1553xf32>) -> !layout.tensor<1553x1237xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<1237x1553xf32>
  %c = layout.contiguous %v : !layout.tensor<1553x1237xf32, strided<[1, 1553]>>
  return %c : !layout.tensor<1553x1237xf32>
}

// A strided gather with a conversion: the step (3) is read at run time too.
// A reduction shares this module, so LLVM's O2 pipeline runs on it and
// vectorizes the gather's strided loop (runtime-extents-pipeline.mlir:
// without the reduction, clean-up passes only).
// CHECK-LABEL: define internal void @gather__kernel0(
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1361|1360|4083)[^0-9]}}
// CHECK: vector.body
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1361|1360|4083)[^0-9]}}
// CHECK: ret void
// CHECK-LABEL: define ptr @gather_raw(
// CHECK: store {{.*}}i64 1361, i64 3
func.func @gather(%x: !layout.tensor<4083xf16>) -> !layout.tensor<1361xf32> {
  %s = layout.slice %x dim 0 [0 : : 3] : !layout.tensor<4083xf16>
  %c = layout.to %s f32 : !layout.tensor<1361xf16, strided<[3]>>
  return %c : !layout.tensor<1361xf32>
}

// A reduction of the inner loop: run length, row stride and output count
// come from the extents array. (In the entry point, LLVM folds the split
// and the accumulator count, computed from the plan's values today.)
// CHECK-LABEL: define internal void @rowsum__kernel0(
// CHECK-NOT: {{[^a-zA-Z$._0-9%](1237|1553|1552)[^0-9]}}
// CHECK: fadd
// CHECK: ret void
// CHECK-LABEL: define ptr @rowsum_raw(
// CHECK: call ptr @lrt_scratch_alloc(
// CHECK: call ptr @lrt_parallel_for(
func.func @rowsum(%x: !layout.tensor<1237x1553xf32>) -> !layout.tensor<1237xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<1237x1553xf32>
  return %r : !layout.tensor<1237xf32>
}

// A byte transpose's partial squares move element by element, in loops of
// fewer iterations than a vector has lanes: LLVM is told not to vectorize
// or unroll them (the only loop metadata before its pipeline).
// SHORT-LABEL: define internal void @bytes__kernel0(
// SHORT: br {{.*}}!llvm.loop ![[SHORT:[0-9]+]]
// SHORT: ![[SHORT]] = distinct !{![[SHORT]], ![[NOVEC:[0-9]+]], ![[NOUNROLL:[0-9]+]]}
// SHORT: ![[NOVEC]] = !{!"llvm.loop.vectorize.enable", i1 false}
// SHORT: ![[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}
func.func @bytes(%x: !layout.tensor<37x53xi8>) -> !layout.tensor<53x37xi8> {
  %v = layout.permute %x [1, 0] : !layout.tensor<37x53xi8>
  %c = layout.contiguous %v : !layout.tensor<53x37xi8, strided<[1, 53]>>
  return %c : !layout.tensor<53x37xi8>
}
