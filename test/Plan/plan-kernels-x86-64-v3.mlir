// RUN: layout-opt %s --layout-fold-views --layout-plan-copies --layout-plan-kernels=target=x86-64-v3 | FileCheck %s
//
// The plans layout-plan-kernels makes for the x86-64-v3 preset (AVX2: 16 vector registers, 32-byte vectors, at most 64 chunks).

// CHECK-LABEL: func.func @transpose
// CHECK: layout.materialize %{{.*}} {layout.plan = #layout.plan<{chunks = 1 : i64,{{.*}} loops = [array<i64: 64, 1, 64>, array<i64: 64, 64, 1>],{{.*}} square_edge = 8 : i64,{{.*}} strategy = "transpose",{{.*}} streaming_stores = false, tile = array<i64: 8, 8>, tiled_loops = array<i64: 0, 1>, tiling = {edge = 8 : i64,{{.*}} vector_width = 8 : i64}>
// A 2-D f32 transpose: register tiles whose edge depends on the registers.
func.func @transpose(%x: !layout.tensor<64x64xf32>) -> !layout.tensor<64x64xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<64x64xf32>
  %c = layout.contiguous %t : !layout.tensor<64x64xf32, strided<[1, 64]>>
  return %c : !layout.tensor<64x64xf32>
}

// CHECK-LABEL: func.func @big_copy
// CHECK: layout.materialize %{{.*}} {layout.plan = #layout.plan<{chunks = 64 : i64,{{.*}} parallel_dim = 0 : i64,{{.*}} strategy = "memcpy",{{.*}} streaming_stores = true,{{.*}} vector_width = 8 : i64}>
// 128 MiB of traffic: past every preset's cache, so stores stream, split in
// as many chunks as the target allows.
func.func @big_copy(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %c = layout.clone %x : !layout.tensor<4096x4096xf32>
  return %c : !layout.tensor<4096x4096xf32>
}

// CHECK-LABEL: func.func @sum_rows
// CHECK: layout.reduce sum %{{.*}} {layout.plan = #layout.plan<{accumulator = "f32", chunks = 2 : i64,{{.*}} parallel_dim = 0 : i64, reduced_loops = array<i64: 1>,{{.*}} strategy = "reduce_inner",{{.*}} vector_width = 8 : i64}>
// An inner f16 sum accumulates in f32.
func.func @sum_rows(%x: !layout.tensor<256x1024xf16>) -> !layout.tensor<256xf16> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<256x1024xf16>
  return %r : !layout.tensor<256xf16>
}

// CHECK-LABEL: func.func @gather
// CHECK: layout.copy %{{.*}} {layout.plan = #layout.plan<{chunks = 1 : i64,{{.*}} strategy = "gather",{{.*}} vector_width = 32 : i64}>
// A step-2 read into an existing i8 tensor.
func.func @gather(%x: !layout.tensor<128x128xi8>, %y: !layout.tensor<128x64xi8>) {
  %s = layout.slice %x dim 1 [0 : 128 : 2] : !layout.tensor<128x128xi8>
  layout.copy %s, %y : !layout.tensor<128x64xi8, strided<[128, 2]>>, !layout.tensor<128x64xi8>
  return
}
