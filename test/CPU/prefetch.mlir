// Streaming transposes prefetch their source into L2 (prefetcht1) where the
// hardware prefetchers fall behind: when the source is one sequential stream
// read in blocks of a page or less (8 KiB ahead), and when a tile reads 32 or
// more long rows that do not share L1 sets (2 KiB ahead along each row).
// RUN: layoutc %s --emit=llvm | FileCheck %s
// RUN: layoutc %s --emit=llvm --mattr=+avx512f | FileCheck %s
// RUN: layoutc %s --emit=asm | FileCheck %s --check-prefix=ASM

// NHWC -> NCHW with 64 channels: each tile reads 16 adjacent 256-byte rows.
// CHECK-LABEL: define internal void @nhwc_to_nchw__kernel0(
// CHECK: %[[A:[0-9]+]] = getelementptr i8, ptr %{{.*}}, i64 8192
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[A]], i32 0, i32 2, i32 1)
// CHECK-NEXT: load <{{4|16}} x float>
// CHECK: store <{{8|16}} x float> %{{.*}}, !nontemporal
// CHECK-LABEL: define ptr @nhwc_to_nchw_raw(
// ASM-LABEL: nhwc_to_nchw__kernel0:
// ASM: prefetcht1
// ASM-LABEL: .Lfunc_end
func.func @nhwc_to_nchw(%x: !layout.tensor<16x112x112x64xf32>) -> !layout.tensor<16x64x112x112xf32> {
  %p = layout.permute %x [0, 3, 1, 2] : !layout.tensor<16x112x112x64xf32>
  %c = layout.contiguous %p : !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>>
  return %c : !layout.tensor<16x64x112x112xf32>
}

// f32 -> f16 with NCHW -> NHWC: a tile reads 32 channel rows 49 KiB apart,
// one prefetch per 64 bytes of each row.
// CHECK-LABEL: define internal void @nchw_to_nhwc_f16__kernel0(
// CHECK: %[[R:[0-9]+]] = getelementptr i8, ptr %{{.*}}, i64 2048
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[R]], i32 0, i32 2, i32 1)
// CHECK-NEXT: load <8 x float>
// CHECK-NOT: getelementptr i8, ptr %{{.*}}, i64 2080
// CHECK: store <{{16|32}} x half> %{{.*}}, !nontemporal
// CHECK-LABEL: define ptr @nchw_to_nhwc_f16_raw(
func.func @nchw_to_nhwc_f16(%x: !layout.tensor<16x64x112x112xf32>) -> !layout.tensor<16x112x112x64xf16> {
  %p = layout.permute %x [0, 2, 3, 1] : !layout.tensor<16x64x112x112xf32>
  %c = layout.contiguous %p : !layout.tensor<16x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
  %h = layout.to %c f16 : !layout.tensor<16x112x112x64xf32>
  return %h : !layout.tensor<16x112x112x64xf16>
}

// Rows 8 KiB apart share L1 sets: their lines come back from L2 anyway, and
// prefetching slowed this down (0.37 -> 0.32 of the copy limit).
// CHECK-LABEL: define internal void @f16_rows_in_one_set__kernel0(
// CHECK-NOT: llvm.prefetch
// CHECK-LABEL: define ptr @f16_rows_in_one_set_raw(
func.func @f16_rows_in_one_set(%x: !layout.tensor<8192x4096xf16>) -> !layout.tensor<4096x8192xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<8192x4096xf16>
  %c = layout.contiguous %p : !layout.tensor<4096x8192xf16, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x8192xf16>
}

// 16 long rows: the hardware prefetchers keep up.
// CHECK-LABEL: define internal void @square__kernel0(
// CHECK-NOT: llvm.prefetch
// CHECK-LABEL: define ptr @square_raw(
func.func @square(%x: !layout.tensor<4096x4112xf32>) -> !layout.tensor<4112x4096xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<4096x4112xf32>
  %c = layout.contiguous %p : !layout.tensor<4112x4096xf32, strided<[1, 4112]>>
  return %c : !layout.tensor<4112x4096xf32>
}

// Tiles that fit the cache store normally and do not prefetch.
// CHECK-LABEL: define internal void @small_nhwc_to_nchw__kernel0(
// CHECK-NOT: llvm.prefetch
// CHECK-LABEL: define ptr @small_nhwc_to_nchw_raw(
func.func @small_nhwc_to_nchw(%x: !layout.tensor<1x32x32x64xf32>) -> !layout.tensor<1x64x32x32xf32> {
  %p = layout.permute %x [0, 3, 1, 2] : !layout.tensor<1x32x32x64xf32>
  %c = layout.contiguous %p : !layout.tensor<1x64x32x32xf32, strided<[65536, 1, 2048, 64]>>
  return %c : !layout.tensor<1x64x32x32xf32>
}
