// Streaming transposes and some reductions prefetch their source into L2
// (prefetcht1) where the hardware prefetchers fall behind: a transpose that
// reads its source block by block, blocks of adjacent rows up to 64 KiB (two
// blocks ahead, at least 8 KiB); a transpose tile of 32 or more long rows
// of which at most 8 share an L1 set or, with 32 vector registers, f16 tiles
// that load every source line whole (1 KiB ahead along each row); the rows
// of an outer reduction's group (one group ahead); skewed transpose tiles
// along source rows of 4 KiB or more (1 KiB ahead); inner reductions of
// 2-byte elements, 8 KiB ahead.
// RUN: layoutc %s --emit=llvm | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: layoutc %s --emit=llvm --mattr=+avx512f | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: layoutc %s --emit=asm | FileCheck %s --check-prefix=ASM

// NHWC -> NCHW with 64 channels: each tile reads 32 adjacent 256-byte rows
// (two lines of each destination row), blocks of 8 KiB.
// CHECK-LABEL: define internal void @nhwc_to_nchw__kernel0(
// CHECK: %[[A:[0-9]+]] = getelementptr i8, ptr %{{.*}}, i64 16384
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[A]], i32 0, i32 2, i32 1)
// CHECK-NEXT: load <{{8|16}} x float>
// CHECK: store <32 x float> %{{.*}}, !nontemporal
// CHECK-LABEL: define ptr @nhwc_to_nchw_raw(
// ASM-LABEL: nhwc_to_nchw__kernel0:
// ASM: prefetcht1
// ASM-LABEL: .Lfunc_end
func.func @nhwc_to_nchw(%x: !layout.tensor<16x112x112x64xf32>) -> !layout.tensor<16x64x112x112xf32> {
  %p = layout.permute %x [0, 3, 1, 2] : !layout.tensor<16x112x112x64xf32>
  %c = layout.contiguous %p : !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>>
  return %c : !layout.tensor<16x64x112x112xf32>
}

// A batched transpose of 2 KiB rows: blocks of 32 rows, 64 KiB.
// CHECK-LABEL: define internal void @batched__kernel0(
// CHECK: %[[B:[0-9]+]] = getelementptr i8, ptr %{{.*}}, i64 131072
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[B]], i32 0, i32 2, i32 1)
// CHECK-LABEL: define ptr @batched_raw(
func.func @batched(%x: !layout.tensor<64x512x512xf32>) -> !layout.tensor<64x512x512xf32> {
  %p = layout.permute %x [0, 2, 1] : !layout.tensor<64x512x512xf32>
  %c = layout.contiguous %p : !layout.tensor<64x512x512xf32, strided<[262144, 1, 512]>>
  return %c : !layout.tensor<64x512x512xf32>
}

// f32 -> f16 with NCHW -> NHWC: a tile reads 64 channel rows (two lines of
// 32 halves per destination row) 49 KiB apart, each in its own L1 set with
// 112x113 images: one prefetch per 64 bytes of each row.
// CHECK-LABEL: define internal void @nchw_to_nhwc_f16__kernel0(
// CHECK: %[[R:[0-9]+]] = getelementptr i8, ptr %{{.*}}, i64 1024
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[R]], i32 0, i32 2, i32 1)
// CHECK-NEXT: load <8 x float>
// CHECK-NOT: getelementptr i8, ptr %{{.*}}, i64 1056
// CHECK: store <64 x half> %{{.*}}, !nontemporal
// CHECK-LABEL: define ptr @nchw_to_nhwc_f16_raw(
func.func @nchw_to_nhwc_f16(%x: !layout.tensor<16x64x112x113xf32>) -> !layout.tensor<16x112x113x64xf16> {
  %p = layout.permute %x [0, 2, 3, 1] : !layout.tensor<16x64x112x113xf32>
  %c = layout.contiguous %p : !layout.tensor<16x112x113x64xf32, strided<[809984, 113, 1, 12656]>>
  %h = layout.to %c f16 : !layout.tensor<16x112x113x64xf32>
  return %h : !layout.tensor<16x112x113x64xf16>
}

// With 112x112 images (C1), 16 of those rows share each set, and the
// prefetches slowed it down (0.70-0.79 -> 0.62 of the copy limit).
// CHECK-LABEL: define internal void @c1__kernel0(
// CHECK-NOT: llvm.prefetch
// CHECK-LABEL: define ptr @c1_raw(
func.func @c1(%x: !layout.tensor<16x64x112x112xf32>) -> !layout.tensor<16x112x112x64xf16> {
  %p = layout.permute %x [0, 2, 3, 1] : !layout.tensor<16x64x112x112xf32>
  %c = layout.contiguous %p : !layout.tensor<16x112x112x64xf32, strided<[802816, 112, 1, 12544]>>
  %h = layout.to %c f16 : !layout.tensor<16x112x112x64xf32>
  return %h : !layout.tensor<16x112x112x64xf16>
}

// Rows 8 KiB apart share L1 sets. Tiles that load each row in 16-byte pieces
// (AVX2) find its line back in L2 for every piece, and prefetching slowed
// them down; with 32 registers every line is loaded whole, once, and then
// prefetching pays (P10 0.46 -> 0.54 of the copy limit).
// AVX2-LABEL: define internal void @f16_rows_in_one_set__kernel0(
// AVX2-NOT: llvm.prefetch
// AVX2-LABEL: define ptr @f16_rows_in_one_set_raw(
// AVX512-LABEL: define internal void @f16_rows_in_one_set__kernel0(
// AVX512: %[[L:[0-9]+]] = getelementptr i8, ptr %{{.*}}, i64 1024
// AVX512-NEXT: call void @llvm.prefetch.p0(ptr %[[L]], i32 0, i32 2, i32 1)
// AVX512-NEXT: load <32 x i16>
// AVX512: store <32 x i16> %{{.*}}, !nontemporal
// AVX512-LABEL: define ptr @f16_rows_in_one_set_raw(
func.func @f16_rows_in_one_set(%x: !layout.tensor<8192x4096xf16>) -> !layout.tensor<4096x8192xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<8192x4096xf16>
  %c = layout.contiguous %p : !layout.tensor<4096x8192xf16, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x8192xf16>
}

// 32 long rows (two lines of each destination row) 4112 floats apart, in
// different sets: 1 KiB ahead.
// CHECK-LABEL: define internal void @square__kernel0(
// CHECK: %[[Q:[0-9]+]] = getelementptr i8, ptr %{{.*}}, i64 1024
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[Q]], i32 0, i32 2, i32 1)
// CHECK-LABEL: define ptr @square_raw(
func.func @square(%x: !layout.tensor<4096x4112xf32>) -> !layout.tensor<4112x4096xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<4096x4112xf32>
  %c = layout.contiguous %p : !layout.tensor<4112x4096xf32, strided<[1, 4112]>>
  return %c : !layout.tensor<4112x4096xf32>
}

// 16 long rows (f64, two lines of 8 doubles per destination row; blocks of
// 256 KiB): the hardware prefetchers keep up.
// CHECK-LABEL: define internal void @doubles__kernel0(
// CHECK-NOT: llvm.prefetch
// CHECK-LABEL: define ptr @doubles_raw(
func.func @doubles(%x: !layout.tensor<4096x2048xf64>) -> !layout.tensor<2048x4096xf64> {
  %p = layout.permute %x [1, 0] : !layout.tensor<4096x2048xf64>
  %c = layout.contiguous %p : !layout.tensor<2048x4096xf64, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x4096xf64>
}

// Skewed tiles (destination rows 4095 floats apart) read 9 lines' worth of source rows a vector at a time, far more streams than the
// prefetchers follow: 1 KiB ahead along rows of 4 KiB or more (P1 at
// 4095x4097: 0.23 -> 0.31 of the copy limit at 1 thread)...
// CHECK-LABEL: define internal void @skewed__kernel0(
// CHECK: %[[S:[0-9]+]] = getelementptr i8, ptr %{{.*}}, i64 1024
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[S]], i32 0, i32 2, i32 1)
// CHECK-NEXT: load <{{8|16}} x float>
// CHECK: store <{{8|16}} x float> %{{.*}}, !nontemporal
// CHECK-LABEL: define ptr @skewed_raw(
func.func @skewed(%x: !layout.tensor<4095x4097xf32>) -> !layout.tensor<4097x4095xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<4095x4097xf32>
  %c = layout.contiguous %p : !layout.tensor<4097x4095xf32, strided<[1, 4097]>>
  return %c : !layout.tensor<4097x4095xf32>
}

// ...but not along shorter ones: NHWC -> NCHW with 63 channels (P3 odd)
// skews over a 36 KiB block of adjacent 252-byte rows.
// CHECK-LABEL: define internal void @skewed_short_rows__kernel0(
// CHECK-NOT: llvm.prefetch
// CHECK: store <{{8|16}} x float> %{{.*}}, !nontemporal
// CHECK-NOT: llvm.prefetch
// CHECK-LABEL: define ptr @skewed_short_rows_raw(
func.func @skewed_short_rows(%x: !layout.tensor<15x111x113x63xf32>) -> !layout.tensor<15x63x111x113xf32> {
  %p = layout.permute %x [0, 3, 1, 2] : !layout.tensor<15x111x113x63xf32>
  %c = layout.contiguous %p : !layout.tensor<15x63x111x113xf32, strided<[790209, 1, 7119, 63]>>
  return %c : !layout.tensor<15x63x111x113xf32>
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

// Outer reductions take the rows in groups of 8 and, for inputs larger than
// L2, prefetch every row's vector one group ahead (at least 16 KiB).
// CHECK-LABEL: define internal void @sum_rows__kernel0(
// CHECK: %[[V:[0-9]+]] = getelementptr i8, ptr %[[ROW0:[0-9]+]], i64 32768
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[V]], i32 0, i32 2, i32 1)
// CHECK-NEXT: load <8 x float>, ptr %[[ROW0]]
// CHECK-NEXT: %[[ROW1:[0-9]+]] = getelementptr i8, ptr %[[ROW0]], i64 4096
// CHECK-NEXT: %[[V1:[0-9]+]] = getelementptr i8, ptr %[[ROW0]], i64 36864
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[V1]], i32 0, i32 2, i32 1)
// CHECK-NEXT: load <8 x float>, ptr %[[ROW1]]
// CHECK-LABEL: define ptr @sum_rows_raw(
func.func @sum_rows(%x: !layout.tensor<16384x1024xf32>) -> !layout.tensor<1024xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<16384x1024xf32>
  return %r : !layout.tensor<1024xf32>
}

// amax over x.T: 16 KiB rows, a group of 8 is 128 KiB.
// CHECK-LABEL: define internal void @amax_cols__kernel0(
// CHECK: getelementptr i8, ptr %{{[0-9]+}}, i64 131072
// CHECK-NEXT: call void @llvm.prefetch.p0(
// CHECK-LABEL: define ptr @amax_cols_raw(
func.func @amax_cols(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<4096x4096xf32>
  %r = layout.reduce amax %v dims [1] : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %r : !layout.tensor<4096xf32>
}

// An input that fits in L2 still groups its rows, without prefetches.
// CHECK-LABEL: define internal void @sum_rows_in_cache__kernel0(
// CHECK-NOT: llvm.prefetch
// CHECK: load <8 x float>
// CHECK-COUNT-7: getelementptr i8, ptr %{{[0-9]+}}, i64 {{1024|2048|3072|4096|5120|6144|7168}}
// CHECK-NOT: llvm.prefetch
// CHECK-LABEL: define ptr @sum_rows_in_cache_raw(
func.func @sum_rows_in_cache(%x: !layout.tensor<64x256xf32>) -> !layout.tensor<256xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<64x256xf32>
  return %r : !layout.tensor<256xf32>
}

// An inner reduction of f16 larger than L2 (R5) prefetches each line 8 KiB
// ahead; f32 runs and inputs in L2 leave it to the hardware.
// CHECK-LABEL: define internal void @sum_halves__kernel0(
// CHECK: %[[H:[0-9]+]] = getelementptr i8, ptr %{{[0-9a-z.]+}}, i64 8192
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[H]], i32 0, i32 2, i32 1)
// CHECK-NEXT: load <8 x half>
// CHECK-LABEL: define ptr @sum_halves_raw(
func.func @sum_halves(%x: !layout.tensor<8192x8192xf16>) -> !layout.tensor<f16> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<8192x8192xf16>
  return %r : !layout.tensor<f16>
}

// CHECK-LABEL: define internal void @sum_floats__kernel0(
// CHECK-NOT: llvm.prefetch
// CHECK-LABEL: define ptr @sum_floats_raw(
func.func @sum_floats(%x: !layout.tensor<8192x8192xf32>) -> !layout.tensor<f32> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<8192x8192xf32>
  return %r : !layout.tensor<f32>
}

// CHECK-LABEL: define internal void @sum_halves_in_cache__kernel0(
// CHECK-NOT: llvm.prefetch
// CHECK-LABEL: define ptr @sum_halves_in_cache_raw(
func.func @sum_halves_in_cache(%x: !layout.tensor<256x512xf16>) -> !layout.tensor<f16> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<256x512xf16>
  return %r : !layout.tensor<f16>
}
