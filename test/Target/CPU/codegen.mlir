// LLVM IR the CPU backend emits for each kernel strategy: the vector types,
// shuffles and streaming stores must be there, not scalar loops.
// RUN: layoutc %s --emit=llvm --mcpu=x86-64-v3 | FileCheck %s
// RUN: layoutc %s --emit=asm --mcpu=x86-64-v3 | FileCheck %s --check-prefix=ASM

// ASM-LABEL: transpose__kernel0:
// ASM: vshufps ${{[0-9]+}}, %ymm
// ASM-LABEL: big_transpose__kernel0:
// ASM: vmovntps %ymm
// ASM: sfence
// ASM-LABEL: to_f16__kernel0:
// ASM: vcvtps2ph

// The DLPack entry points bind their tensors with the parameters' names,
// "x" then "result0", for layout_rt's messages (kDLCPU = 1).
// CHECK: @transpose__params = internal constant [11 x i8] c"x\00result0\00\00"
// CHECK-LABEL: define internal void @transpose__kernel0(
// Two 8x8 tiles per micro-kernel: 8-lane row loads, shuffle rounds, and
// 16-float stores (one 64-byte line per destination row).
// CHECK: load <8 x float>
// CHECK: shufflevector <8 x float>
// CHECK: store <16 x float>
// CHECK-LABEL: define ptr @transpose_raw(
// CHECK: call ptr @lrt_exec_options_resolve_threads(
// CHECK: call ptr @lrt_parallel_for(ptr %{{.*}}, i64 1, i64 1, ptr nonnull @transpose__kernel0
// CHECK-LABEL: define ptr @transpose(
// CHECK: call ptr @lrt_bind_tensors_named(ptr nonnull @transpose__name, ptr nonnull @transpose__descriptor, ptr nonnull @transpose__params, i32 1,
func.func @transpose(%x: !layout.tensor<64x64xf32>) -> !layout.tensor<64x64xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x64xf32>
  %c = layout.contiguous %p : !layout.tensor<64x64xf32, strided<[1, 64]>>
  return %c : !layout.tensor<64x64xf32>
}

// A destination larger than the cache is written with non-temporal stores,
// behind a run-time alignment check, then sfence.
// CHECK-LABEL: define internal void @big_transpose__kernel0(
// CHECK: and i64 %{{.*}}, 63
// CHECK: store <16 x float> %{{.*}}, !nontemporal
// CHECK: call void @llvm.x86.sse.sfence()
// The source's rows (the destination's stride-1 loop) split into 64 chunks of
// 64 columns, 4 destination lines each.
// CHECK-LABEL: define ptr @big_transpose_raw(
// CHECK: call ptr @lrt_parallel_for(ptr %{{.*}}, i64 4096, i64 64, ptr nonnull @big_transpose__kernel0
func.func @big_transpose(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %p = layout.permute %x [1, 0] : !layout.tensor<4096x4096xf32>
  %c = layout.contiguous %p : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x4096xf32>
}

// NCHW -> NHWC (bench P2) splits its 16 images, one per chunk: a split loop
// outside the tile needs no line alignment (a grain rounded up to 16 lines
// once ran all 16 images in one chunk, on one thread).
// CHECK-LABEL: define ptr @nhwc_raw(
// CHECK: call ptr @lrt_parallel_for(ptr %{{.*}}, i64 16, i64 1, ptr nonnull @nhwc__kernel0
func.func @nhwc(%x: !layout.tensor<16x64x112x112xf32>) -> !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<16x64x112x112xf32>
  return %c : !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>>
}

// Destination rows of 4 f32 (shorter than the 8x8 square): 4x4 tiles of
// <4 x float> rows, not the scalar rectangle (P9 at 8x8x8x4x4x8).
// CHECK-LABEL: define internal void @narrow__kernel0(
// CHECK: load <4 x float>
// CHECK: shufflevector <4 x float>
// CHECK: store <4 x float>
// CHECK-LABEL: define ptr @narrow_raw(
func.func @narrow(%x: !layout.tensor<4x8x64xf32>) -> !layout.tensor<64x8x4xf32> {
  %p = layout.permute %x [2, 1, 0] : !layout.tensor<4x8x64xf32>
  %c = layout.contiguous %p : !layout.tensor<64x8x4xf32, strided<[1, 64, 512]>>
  return %c : !layout.tensor<64x8x4xf32>
}

// Odd extents (a = 13, b = 9; a loop of 5 inside the tile): the squares
// past a's and b's last whole one load and store under masks, not element
// by element.
// CHECK-LABEL: define internal void @odd_edges__kernel0(
// CHECK: call <8 x float> @llvm.masked.load.v8f32.p0(
// CHECK: call void @llvm.masked.store.v8f32.p0(
// CHECK-LABEL: define ptr @odd_edges_raw(
func.func @odd_edges(%x: !layout.tensor<9x5x13xf32>) -> !layout.tensor<13x5x9xf32> {
  %p = layout.permute %x [2, 1, 0] : !layout.tensor<9x5x13xf32>
  %c = layout.contiguous %p : !layout.tensor<13x5x9xf32, strided<[1, 13, 65]>>
  return %c : !layout.tensor<13x5x9xf32>
}

// 2-byte elements (no masked moves without AVX-512BW) copy their edges
// element by element.
// CHECK-LABEL: define internal void @odd_edges_f16__kernel0(
// CHECK-NOT: @llvm.masked
// CHECK-LABEL: define ptr @odd_edges_f16_raw(
func.func @odd_edges_f16(%x: !layout.tensor<9x5x13xf16>) -> !layout.tensor<13x5x9xf16> {
  %p = layout.permute %x [2, 1, 0] : !layout.tensor<9x5x13xf16>
  %c = layout.contiguous %p : !layout.tensor<13x5x9xf16, strided<[1, 13, 65]>>
  return %c : !layout.tensor<13x5x9xf16>
}

// Source rows 4 KiB apart share an L1 set: the micro tile takes its squares
// one at a time, the halves' four squares along a back to back, and stores
// each square's rows (8 halves), never a whole line of four squares.
// CHECK-LABEL: define internal void @pow2_rows__kernel0(
// CHECK-COUNT-8: load <8 x i16>
// CHECK-NOT: load
// CHECK-COUNT-8: store <8 x i16>
// CHECK-COUNT-8: load <8 x i16>
// CHECK-NOT: load
// CHECK-COUNT-8: store <8 x i16>
// CHECK-NOT: store <32 x i16>
// CHECK-LABEL: define ptr @pow2_rows_raw(
func.func @pow2_rows(%x: !layout.tensor<64x2048xf16>) -> !layout.tensor<2048x64xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<64x2048xf16>
  %c = layout.contiguous %p : !layout.tensor<2048x64xf16, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x64xf16>
}

// Fused f32 -> f16 conversion of a transpose, four 8x8 tiles per line.
// CHECK-LABEL: define internal void @to_f16__kernel0(
// CHECK: fptrunc <32 x float> %{{.*}} to <32 x half>
// CHECK: store <32 x half>
func.func @to_f16(%x: !layout.tensor<32x64xf32>) -> !layout.tensor<64x32xf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<32x64xf32>
  %t = layout.to %p f16 : !layout.tensor<64x32xf32, strided<[1, 64]>>
  %c = layout.contiguous %t : !layout.tensor<64x32xf16, strided<[1, 64]>>
  return %c : !layout.tensor<64x32xf16>
}

// Broadcast: one splat, vector stores.
// CHECK-LABEL: define internal void @broadcast__kernel0(
// CHECK: store <8 x float>
func.func @broadcast(%x: !layout.tensor<1x1xf32>) -> !layout.tensor<16x16xf32> {
  %e = layout.expand %x [16, 16] : !layout.tensor<1x1xf32>
  %c = layout.contiguous %e : !layout.tensor<16x16xf32, strided<[0, 0]>>
  return %c : !layout.tensor<16x16xf32>
}

// Inner reduction: vector loads into several vector accumulators.
// CHECK-LABEL: define internal void @sum_inner__kernel0(
// CHECK: load <8 x float>
// CHECK: fadd <8 x float>
// CHECK-LABEL: define ptr @sum_inner_raw(
// CHECK: call ptr @lrt_scratch_alloc(
// CHECK: call void @lrt_scratch_free(
func.func @sum_inner(%x: !layout.tensor<8x1024xf32>) -> !layout.tensor<8xf32> {
  %r = layout.reduce sum %x dims [1] : !layout.tensor<8x1024xf32>
  return %r : !layout.tensor<8xf32>
}

// f16 sums accumulate in f32.
// CHECK-LABEL: define internal void @sum_f16__kernel0(
// CHECK: fpext <8 x half> %{{.*}} to <8 x float>
// CHECK: fadd <8 x float>
func.func @sum_f16(%x: !layout.tensor<4096xf16>) -> !layout.tensor<f16> {
  %r = layout.reduce sum %x dims [] : !layout.tensor<4096xf16>
  return %r : !layout.tensor<f16>
}

// Outer reduction (amax over rows): the kept columns are vectors; a NaN
// input wins the comparison (it propagates, as in PyTorch). A group of 8
// rows takes plain compare-and-selects (maxps) and notes NaNs apart, one
// unordered compare per pair of rows; the group is a NaN where any row
// had one, and joins the accumulator, which keeps a NaN it holds.
// CHECK-LABEL: define internal void @amax_outer__kernel0(
// CHECK: load <8 x float>
// CHECK: %[[U0:[0-9]+]] = fcmp uno <8 x float> %[[R0:[0-9]+]], %[[R1:[0-9]+]]
// CHECK: %[[U1:[0-9]+]] = fcmp uno <8 x float>
// CHECK: %[[N:[0-9]+]] = or <8 x i1> %[[U0]], %[[U1]]
// CHECK: %[[G:[0-9]+]] = fcmp ogt <8 x float> %[[R0]], %[[R1]]
// CHECK: select <8 x i1> %[[G]], <8 x float> %[[R0]], <8 x float> %[[R1]]
// CHECK: select <8 x i1> %{{[0-9]+}}, <8 x float> splat (float 0x7FF8000000000000), <8 x float>
// CHECK: %[[OLD:[0-9]+]] = freeze <8 x float>
// CHECK: fcmp uno <8 x float> %[[OLD]], zeroinitializer
func.func @amax_outer(%x: !layout.tensor<64x256xf32>) -> !layout.tensor<256xf32> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<64x256xf32>
  return %r : !layout.tensor<256xf32>
}

// Outer reduction whose accumulator row (16 KiB) is over a quarter of L1:
// eight rows (16 KiB apart) combine before they join the accumulator, which
// is frozen after its load so that LLVM does not fold the select-and-store
// into a masked store (vmaskmovps to memory is microcoded on AMD Zen).
// CHECK-LABEL: define internal void @amax_outer_wide__kernel0(
// CHECK: %[[R0:.*]] = load <8 x float>
// CHECK: getelementptr i8, ptr %[[ROW:.*]], i64 16384
// CHECK: getelementptr i8, ptr %[[ROW]], i64 32768
// CHECK: getelementptr i8, ptr %[[ROW]], i64 49152
// CHECK: getelementptr i8, ptr %[[ROW]], i64 114688
// CHECK: = freeze <8 x float> %{{[0-9]+}}
// CHECK: store <8 x float>
// ASM-LABEL: amax_outer_wide__kernel0:
// ASM-NOT: vmaskmovps
// ASM: vblendvps
// ASM-NOT: vmaskmovps
// ASM: .Lfunc_end
func.func @amax_outer_wide(%x: !layout.tensor<64x4096xf32>) -> !layout.tensor<4096xf32> {
  %r = layout.reduce amax %x dims [0] : !layout.tensor<64x4096xf32>
  return %r : !layout.tensor<4096xf32>
}

// Inner amax over runs of 3: LLVM unrolls the run and vectorizes the loop
// over outputs, whose accumulator update must not become a masked store
// either.
// ASM-LABEL: amax_inner_short__kernel0:
// ASM-NOT: vmaskmovps
// ASM: .Lfunc_end
func.func @amax_inner_short(%x: !layout.tensor<65536x3xf32>) -> !layout.tensor<65536xf32> {
  %r = layout.reduce amax %x dims [1] : !layout.tensor<65536x3xf32>
  return %r : !layout.tensor<65536xf32>
}

// Destination rows 2049 floats apart: skewed tiles transpose 16 rows (two
// 8 x 8 squares side by side along the source rows, a line of each) into a
// 64-byte-aligned buffer of 9 lines per row, then each row streams whole
// lines from its own first line boundary (the address's distance to it);
// normal stores of 16, 8, 4, 2 and 1 floats fill each row's ends.
// CHECK-LABEL: define internal void @skewed_transpose__kernel0(
// CHECK: %[[BUF:.*]] = alloca [2304 x float], align 64
// CHECK: %[[SQ:.*]] = getelementptr float, ptr %[[BUF]], i64
// CHECK-NEXT: store <8 x float> %{{.*}}, ptr %[[SQ]], align 32
// CHECK: ptrtoint ptr %{{.*}} to i64
// CHECK: store <16 x float> %{{.*}}, align 64, !nontemporal
// The row's first partial line: pieces of 8, 4, 2 (and 1) elements from the
// buffer, stored normally.
// CHECK: load <8 x float>, ptr %[[BUF]], align 64
// CHECK-NEXT: getelementptr float, ptr
// CHECK-NEXT: store <8 x float> %{{.*}}, align 4{{$}}
// CHECK: %[[P4:.*]] = getelementptr float, ptr %[[BUF]], i64
// CHECK-NEXT: load <4 x float>, ptr %[[P4]]
// CHECK: store <4 x float> %{{.*}}, align 4{{$}}
// CHECK: store <2 x float> %{{.*}}, align 4{{$}}
// The edges (the 3 source rows past the last 8-row tile, 2051 = 256 * 8 +
// 3, the columns past the last window, and the rectangular tiles of chunks
// too narrow to skew): masked squares.
// CHECK: call <8 x float> @llvm.masked.load.v8f32.p0(
// CHECK: call void @llvm.masked.store.v8f32.p0(
// CHECK: call void @llvm.x86.sse.sfence()
func.func @skewed_transpose(%x: !layout.tensor<2049x2051xf32>) -> !layout.tensor<2051x2049xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2049x2051xf32>
  %c = layout.contiguous %t : !layout.tensor<2051x2049xf32, strided<[1, 2051]>>
  return %c : !layout.tensor<2051x2049xf32>
}

// A large gather of short rows whose length is no multiple of 64 bytes
// (P6 at odd sizes, rows of 129 floats) into a dense destination: each row
// stores the line it starts in whole, its head joined to the previous row's
// tail by two masked loads per vector, then its whole lines, all
// non-temporal (inline vectors: a memcpy call per 516-byte row was slower).
// CHECK-LABEL: define internal void @odd_rows__kernel0(
// CHECK-NOT: @llvm.memcpy
// CHECK: %[[PREV:.*]] = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %{{.*}}, <8 x i1> %{{.*}}, <8 x float> zeroinitializer)
// CHECK-NEXT: getelementptr float
// CHECK-NEXT: getelementptr float
// CHECK-NEXT: %[[JOINED:.*]] = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %{{.*}}, <8 x i1> %{{.*}}, <8 x float> %[[PREV]])
// CHECK-NEXT: getelementptr float
// CHECK-NEXT: store <8 x float> %[[JOINED]], ptr %{{.*}}, align 32, !nontemporal
// CHECK: %[[WHOLE:.*]] = load <8 x float>, ptr %{{.*}}, align 4
// CHECK-NEXT: getelementptr float
// CHECK-NEXT: store <8 x float> %[[WHOLE]], ptr %{{.*}}, align 32, !nontemporal
// CHECK-NOT: @llvm.memcpy
// CHECK: call void @llvm.x86.sse.sfence()
// CHECK-LABEL: define ptr @odd_rows_raw(
func.func @odd_rows(%x: !layout.tensor<511x255x129xf32>) -> !layout.tensor<255x511x129xf32> {
  %p = layout.permute %x [1, 0, 2] : !layout.tensor<511x255x129xf32>
  %c = layout.contiguous %p : !layout.tensor<255x511x129xf32, strided<[129, 32895, 1]>>
  return %c : !layout.tensor<255x511x129xf32>
}

// The same with 2-byte elements, which AVX2 has no masked loads for: rows
// whose edge lines would mix streaming and normal stores (flushing the
// write-combining buffers half full) store normally.
// CHECK-LABEL: define internal void @odd_rows_f16__kernel0(
// CHECK-NOT: !nontemporal
// CHECK-NOT: @llvm.masked.load
// CHECK: store <16 x i16> %{{.*}}, align 2
// CHECK-NOT: !nontemporal
// CHECK-LABEL: define ptr @odd_rows_f16_raw(
func.func @odd_rows_f16(%x: !layout.tensor<1023x255x129xf16>) -> !layout.tensor<255x1023x129xf16> {
  %p = layout.permute %x [1, 0, 2] : !layout.tensor<1023x255x129xf16>
  %c = layout.contiguous %p : !layout.tensor<255x1023x129xf16, strided<[129, 32895, 1]>>
  return %c : !layout.tensor<255x1023x129xf16>
}

// Rows of 4 KiB in cache: libc's memcpy, one call per row.
// CHECK-LABEL: define internal void @long_rows__kernel0(
// CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}, ptr {{.*}}, i64 4096, i1 false)
// CHECK-LABEL: define ptr @long_rows_raw(
func.func @long_rows(%x: !layout.tensor<4x8x1024xf32>) -> !layout.tensor<8x4x1024xf32> {
  %p = layout.permute %x [1, 0, 2] : !layout.tensor<4x8x1024xf32>
  %c = layout.contiguous %p : !layout.tensor<8x4x1024xf32, strided<[1024, 8192, 1]>>
  return %c : !layout.tensor<8x4x1024xf32>
}

// The same with rows of 128 floats (whole lines) streams.
// CHECK-LABEL: define internal void @line_rows__kernel0(
// CHECK: store <8 x float> %{{.*}}, !nontemporal
// CHECK: call void @llvm.x86.sse.sfence()
func.func @line_rows(%x: !layout.tensor<512x256x128xf32>) -> !layout.tensor<256x512x128xf32> {
  %p = layout.permute %x [1, 0, 2] : !layout.tensor<512x256x128xf32>
  %c = layout.contiguous %p : !layout.tensor<256x512x128xf32, strided<[128, 32768, 1]>>
  return %c : !layout.tensor<256x512x128xf32>
}

// NHWC -> NCHW (bench P3 with 112x113 images), 256-byte source rows.
// Streaming tiles store two lines of each destination row back to back: a
// 128-byte span in four 32-byte streaming stores, one after another. The
// images' 12656 pixels leave one line per channel row past the pairs, whose
// tiles stay in registers: each vector two 16-byte source quarters (the
// high one inserted straight from memory), and no spill (a normal store)
// between the loads and the streaming stores.
// CHECK-LABEL: define internal void @nchw__kernel0(
// CHECK: store <32 x float> %{{.*}}, align 64, !nontemporal
// CHECK: load <4 x float>
// CHECK: shufflevector <4 x float> %{{.*}}, <4 x float> %{{.*}}, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
// CHECK: store <16 x float> %{{.*}}, align 64, !nontemporal
// ASM-LABEL: nchw__kernel0:
// ASM: vmovntps %ymm{{[0-9]+}}, 64(%[[P:r[0-9a-z]+]])
// ASM-NOT: vmovntps
// ASM: vmovntps %ymm{{[0-9]+}}, 32(%[[P]])
// ASM-NOT: vmovntps
// ASM: vmovntps %ymm{{[0-9]+}}, (%[[P]])
// ASM-NOT: vmovntps
// ASM: vmovntps %ymm{{[0-9]+}}, 96(%[[P]])
// ASM: vinsertf128 $1, {{-?[0-9]+}}(%r{{.*}}), %ymm
// ASM-NOT: (%rsp)
// ASM: vmovntps %ymm
// ASM-NOT: (%rsp)
// ASM: vinsertf128 $1, {{-?[0-9]+}}(%r{{.*}}), %ymm
func.func @nchw(%x: !layout.tensor<16x112x113x64xf32>) -> !layout.tensor<16x64x112x113xf32> {
  %v = layout.permute %x [0, 3, 1, 2] : !layout.tensor<16x112x113x64xf32>
  %c = layout.contiguous %v : !layout.tensor<16x64x112x113xf32, strided<[809984, 1, 7232, 64]>>
  return %c : !layout.tensor<16x64x112x113xf32>
}

// NCHW -> NHWC with 3 channels (bench P11): each 96-byte interleaved vector
// goes out as three 32-byte streaming stores, one per channel's worth.
// CHECK-LABEL: define internal void @rgb_planes__kernel0(
// CHECK: shufflevector <96 x i8>
// CHECK: store <32 x i8> %{{.*}}, align 32, !nontemporal
// CHECK: store <32 x i8> %{{.*}}, align 32, !nontemporal
// CHECK: store <32 x i8> %{{.*}}, align 32, !nontemporal
// CHECK: store <96 x i8>
// CHECK: call void @llvm.x86.sse.sfence()
// CHECK-LABEL: define ptr @rgb_planes_raw(
// ASM-LABEL: rgb_planes__kernel0:
// ASM: vmovntdq %ymm
// ASM-LABEL: .Lfunc_end
func.func @rgb_planes(%x: !layout.tensor<16x3x1024x1024xi8>) -> !layout.tensor<16x1024x1024x3xi8> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<16x3x1024x1024xi8>
  %c = layout.contiguous %v : !layout.tensor<16x1024x1024x3xi8, strided<[3145728, 1024, 1, 1048576]>>
  return %c : !layout.tensor<16x1024x1024x3xi8>
}

// A bf16 (or f16) copy without conversion moves its bits as i16: no bf16
// vector reaches LLVM, which would legalize its shuffles lane by lane.
// CHECK-LABEL: define internal void @bf16_transpose__kernel0(
// CHECK-NOT: bfloat
// CHECK: shufflevector <8 x i16>
// CHECK-NOT: bfloat
// CHECK-LABEL: define ptr @bf16_transpose_raw(
func.func @bf16_transpose(%x: !layout.tensor<880x541xbf16>) -> !layout.tensor<541x880xbf16> {
  %p = layout.permute %x [1, 0] : !layout.tensor<880x541xbf16>
  %c = layout.contiguous %p : !layout.tensor<541x880xbf16, strided<[1, 541]>>
  return %c : !layout.tensor<541x880xbf16>
}

// Vectors of unequal lengths (7 byte squares of a tile edge joined into one
// row; 3 loads of a step-3 gather) are joined by shuffles of equal-length
// operands: MLIR lowers any other shuffle to an extract and an insert per
// lane.
// CHECK-LABEL: define internal void @i8_seven_squares__kernel0(
// CHECK-NOT: shufflevector <56 x i8>
// CHECK: shufflevector <32 x i8>
// CHECK-NOT: shufflevector <56 x i8>
// CHECK: store <56 x i8>
// CHECK-NOT: shufflevector <56 x i8>
// CHECK-LABEL: define ptr @i8_seven_squares_raw(
func.func @i8_seven_squares(%x: !layout.tensor<13x61x98xi8>) -> !layout.tensor<13x98x61xi8> {
  %p = layout.permute %x [0, 2, 1] : !layout.tensor<13x61x98xi8>
  %c = layout.contiguous %p : !layout.tensor<13x98x61xi8, strided<[5978, 1, 98]>>
  return %c : !layout.tensor<13x98x61xi8>
}
// CHECK-LABEL: define internal void @step3_gather__kernel0(
// CHECK-NOT: shufflevector <24 x float>
// CHECK: shufflevector <16 x float>
// CHECK-NOT: shufflevector <24 x float>
// CHECK-LABEL: define ptr @step3_gather_raw(
func.func @step3_gather(%x: !layout.tensor<64x999xf32>) -> !layout.tensor<64x333xf32> {
  %s = layout.slice %x dim 1 [: : 3] : !layout.tensor<64x999xf32>
  %c = layout.contiguous %s : !layout.tensor<64x333xf32, strided<[999, 3]>>
  return %c : !layout.tensor<64x333xf32>
}
