// With AVX-512's 32 vector registers, transposes of 4-byte elements take
// 16 x 16 register squares: every row is one 64-byte line, loaded and
// (after the transpose) stored whole. Other
// element widths and conversions keep the 8-row tile of the AVX2 default;
// streaming f16 tiles use the 32 registers differently.
// RUN: layoutc %s --emit=llvm --mattr=+avx512f | FileCheck %s
// RUN: layoutc %s --emit=asm --mattr=+avx512f | FileCheck %s --check-prefix=ASM
// RUN: layoutc %s --emit=asm --mattr=+avx512f,+avx512bw | FileCheck %s --check-prefix=BW
// RUN: layoutc %s --emit=explain --mattr=+avx512f | FileCheck %s --check-prefix=EXPLAIN
// RUN: layoutc %s --emit=explain | FileCheck %s --check-prefix=AVX2
// RUN: layoutc %s --emit=llvm --mattr=+avx512f | FileCheck %s --check-prefix=ATTR

// Only kernels with 64-byte register tiles or line vectors keep AVX-512:
// with it, LLVM turns the 32-byte compares of the others into mask-register
// compares and masked moves (amax in cache ran at 44-46 instead of 72-75
// GB/s on Zen 4).
// ATTR: define internal void @big_transpose__kernel0({{.*}}) #[[WIDE:[0-9]+]]
// ATTR: define internal void @amax_rows__kernel0({{.*}}) #[[NARROW:[0-9]+]]
// ATTR: define internal void @every_second__kernel0({{.*}}) #[[WIDE]]
// ATTR-DAG: attributes #[[WIDE]] = { {{.*}}"target-features"="+avx512f" }
// ATTR-DAG: attributes #[[NARROW]] = { {{.*}}"target-features"="+avx512f,-avx512f" }

// EXPLAIN: "op": "layout.contiguous", "loc": "{{.*}}codegen-avx512.mlir:[[@LINE+17]]:{{[0-9]+}}", "strategy": "transpose"{{.*}}"tile": [16, 16]
// AVX2: "op": "layout.contiguous", "loc": "{{.*}}codegen-avx512.mlir:[[@LINE+16]]:{{[0-9]+}}", "strategy": "transpose"{{.*}}"tile": [8, 8]
// Streaming, two squares side by side: each row of the tile is two lines of
// a destination row, stored back to back (the 32 loaded vectors then do not
// all fit in registers; the pairs are worth the spills).
// CHECK-LABEL: define internal void @big_transpose__kernel0(
// CHECK-NOT: load <8 x float>
// CHECK: load <16 x float>
// CHECK: store <32 x float> %{{.*}}, align 64, !nontemporal
// CHECK-LABEL: define ptr @big_transpose_raw(
// ASM-LABEL: big_transpose__kernel0:
// ASM: vmovnt{{ps|pd}} %zmm{{[0-9]+}}, [[#%d,HI:]](%[[P:r[0-9a-z]+]])
// ASM-NOT: vmovnt
// ASM: vmovnt{{ps|pd}} %zmm{{[0-9]+}}, [[#%d,HI-64]](%[[P]])
// ASM-LABEL: .Lfunc_end
func.func @big_transpose(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<4096x4096xf32>
  %c = layout.contiguous %p : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x4096xf32>
}

// Normal stores too, for tiles that fit the cache.
// EXPLAIN: "loc": "{{.*}}codegen-avx512.mlir:[[@LINE+7]]:{{[0-9]+}}", "strategy": "transpose"{{.*}}"tile": [16, 16]
// CHECK-LABEL: define internal void @small_transpose__kernel0(
// CHECK: load <16 x i32>
// CHECK: shufflevector <16 x i32>
// CHECK: store <16 x i32>
func.func @small_transpose(%x: !layout.tensor<64x48xi32>) -> !layout.tensor<48x64xi32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x48xi32>
  %c = layout.contiguous %p : !layout.tensor<48x64xi32, strided<[1, 48]>>
  return %c : !layout.tensor<48x64xi32>
}

// f16 keeps 8 x 8 squares of <8 x half>.
// EXPLAIN: "loc": "{{.*}}codegen-avx512.mlir:[[@LINE+7]]:{{[0-9]+}}", "strategy": "transpose"{{.*}}"tile": [8, 8]
// CHECK-LABEL: define internal void @half_transpose__kernel0(
// CHECK: load <8 x i16>
// CHECK-NOT: load <16 x i16>
// CHECK-LABEL: define ptr @half_transpose_raw(
func.func @half_transpose(%x: !layout.tensor<64x64xf16>) -> !layout.tensor<64x64xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x64xf16>
  %c = layout.contiguous %p : !layout.tensor<64x64xf16, strided<[1, 64]>>
  return %c : !layout.tensor<64x64xf16>
}

// Streaming f16 tiles: eight 64-byte vectors, each row j of four 8 x 8
// squares side by side (one per 16-byte lane), interleaved in-lane three
// times; each result is one destination line. Every source line is loaded
// whole and its lanes dealt out by whole-lane shuffles (vshuf*64x2).
// CHECK-LABEL: define internal void @half_lines__kernel0(
// CHECK-NOT: load <8 x i16>
// CHECK: load <32 x i16>
// CHECK: shufflevector <32 x i16> %{{.*}}, <32 x i16> %{{.*}}, <32 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15, i32 32,
// CHECK: store <32 x i16> %{{.*}}, !nontemporal
// CHECK-LABEL: define ptr @half_lines_raw(
// BW-LABEL: half_lines__kernel0:
// BW: vshuf{{[if]}}64x2
// BW: vpunpcklwd %zmm
// BW: vmovntdq %zmm
func.func @half_lines(%x: !layout.tensor<8192x4096xf16>) -> !layout.tensor<4096x8192xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<8192x4096xf16>
  %c = layout.contiguous %p : !layout.tensor<4096x8192xf16, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x8192xf16>
}

// A fused f32 -> f16 conversion keeps 8 x 8 squares of <8 x float>.
// EXPLAIN: "loc": "{{.*}}codegen-avx512.mlir:[[@LINE+7]]:{{[0-9]+}}", "strategy": "convert+transpose"{{.*}}"tile": [8, 8]
// CHECK-LABEL: define internal void @to_f16__kernel0(
// CHECK: load <8 x float>
// CHECK: fptrunc <32 x float> %{{.*}} to <32 x half>
func.func @to_f16(%x: !layout.tensor<32x64xf32>) -> !layout.tensor<64x32xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<32x64xf32>
  %t = layout.to %p f16 : !layout.tensor<64x32xf32, strided<[1, 64]>>
  %c = layout.contiguous %t : !layout.tensor<64x32xf16, strided<[1, 64]>>
  return %c : !layout.tensor<64x32xf16>
}

// CHECK-LABEL: define internal void @amax_rows__kernel0(
// CHECK: fcmp uno <8 x float>
// ASM-LABEL: amax_rows__kernel0:
// ASM-NOT: {{zmm|%k[0-7]}}
// ASM: vblendvps
// ASM-LABEL: .Lfunc_end
func.func @amax_rows(%x: !layout.tensor<256x256xf32>) -> !layout.tensor<256xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<256x256xf32>
  %r = layout.reduce amax %t dims [1] : !layout.tensor<256x256xf32, strided<[1, 256]>>
  return %r : !layout.tensor<256xf32>
}

// A streaming gather of every second element (G1) moves one 64-byte line per
// vector: one permute of two line loads and a full-line non-temporal store,
// so it keeps AVX-512; 32-byte vectors without it.
// EXPLAIN: "loc": "{{.*}}codegen-avx512.mlir:[[@LINE+12]]:{{[0-9]+}}", "strategy": "gather"{{.*}}"vector_width": 16
// AVX2: "loc": "{{.*}}codegen-avx512.mlir:[[@LINE+11]]:{{[0-9]+}}", "strategy": "gather"{{.*}}"vector_width": 8
// CHECK-LABEL: define internal void @every_second__kernel0(
// CHECK: shufflevector <16 x float> %{{.*}}, <16 x float> %{{.*}}, <16 x i32> <i32 0, i32 2, i32 4
// CHECK: store <16 x float> %{{.*}}, !nontemporal
// CHECK-LABEL: define ptr @every_second_raw(
// ASM-LABEL: every_second__kernel0:
// ASM: vpermt2ps
// ASM: vmovntps %zmm
// ASM-LABEL: .Lfunc_end
func.func @every_second(%x: !layout.tensor<8192x8192xf32>) -> !layout.tensor<8192x4096xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<8192x8192xf32>
  %c = layout.contiguous %v : !layout.tensor<8192x4096xf32, strided<[8192, 2]>>
  return %c : !layout.tensor<8192x4096xf32>
}
