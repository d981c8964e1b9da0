// RUN: layoutc %s --emit=explain | %python %S/Inputs/json_lines.py --kernels | FileCheck %s --enable-var-scope

// `--emit=explain`'s "kernels": one plan per remaining copy and reduction,
// as the CPU backend compiles them (AVX2, 32 MiB cache, at most 64 chunks;
// none under 256 KiB of traffic). Loops are
// outermost first with strides in elements; a reduced loop has dst_stride 0.

// x.T.contiguous() of f32 [4096, 4096] (bench P1): an 8x8 tile of f32
// vectors; the source's rows split into 64 chunks of 64 (4 destination
// lines); 64 MiB of output bypass the cache.
// CHECK-LABEL: function transpose
// CHECK:       kernel {"op": "layout.contiguous", "loc": "{{.*}}kernels.mlir:[[@LINE+3]]:8", "strategy": "transpose", "loops": [{"size": 4096, "src_stride": 1, "dst_stride": 4096}, {"size": 4096, "src_stride": 4096, "dst_stride": 1}], "vector_width": 8, "tile": [8, 8], "parallel_dim": 1, "chunks": 64, "index_bits": 32, "streaming_stores": true, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}
func.func @transpose(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4096x4096xf32>
  %c = layout.contiguous %t : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x4096xf32>
}

// The same at 4095x4097 (P1 odd): destination rows 4095 floats apart start
// at different offsets in their lines, so each row of a tile skews to its
// own first line boundary and streams from there; the split cuts b into 32
// chunks of 8 lines (a row loses up to a line to normal stores at each end).
// CHECK-LABEL: function transpose_odd
// CHECK:       kernel {"op": "layout.contiguous", {{.*}} "loops": [{"size": 4097, "src_stride": 1, "dst_stride": 4095}, {"size": 4095, "src_stride": 4097, "dst_stride": 1}], {{.*}} "parallel_dim": 1, "chunks": 32, "index_bits": 32, "streaming_stores": true, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}
func.func @transpose_odd(%x: !layout.tensor<4095x4097xf32>) -> !layout.tensor<4097x4095xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4095x4097xf32>
  %c = layout.contiguous %t : !layout.tensor<4097x4095xf32, strided<[1, 4097]>>
  return %c : !layout.tensor<4097x4095xf32>
}

// P4 odd: split along b (255 floats), 16 chunks of one line would be too
// narrow for skewed tiles: rectangular tiles, normal stores, and then the
// split moves to the middle loop, so that chunks own whole destination rows.
// CHECK-LABEL: function reverse_odd
// CHECK:       kernel {"op": "layout.contiguous", {{.*}} "loops": [{"size": 255, "src_stride": 1, "dst_stride": 65535}, {"size": 257, "src_stride": 255, "dst_stride": 255}, {"size": 255, "src_stride": 65535, "dst_stride": 1}], {{.*}} "parallel_dim": 1, "chunks": 52, "index_bits": 32, "streaming_stores": false, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}
func.func @reverse_odd(%x: !layout.tensor<255x257x255xf32>) -> !layout.tensor<255x257x255xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<255x257x255xf32>
  %c = layout.contiguous %v : !layout.tensor<255x257x255xf32, strided<[1, 255, 65535]>>
  return %c : !layout.tensor<255x257x255xf32>
}

// NCHW -> NHWC of i8 [16, 3, 1024, 1024] (P11): the three channel rows
// interleave into one 3 MiB run per image, which streams.
// CHECK-LABEL: function nhwc_bytes
// CHECK:       kernel {"op": "layout.contiguous", {{.*}} "loops": [{"size": 16, "src_stride": 3145728, "dst_stride": 3145728}, {"size": 1048576, "src_stride": 1, "dst_stride": 3}, {"size": 3, "src_stride": 1048576, "dst_stride": 1}], {{.*}} "streaming_stores": true, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}
func.func @nhwc_bytes(%x: !layout.tensor<16x3x1024x1024xi8>) -> !layout.tensor<16x3x1024x1024xi8, strided<[3145728, 1, 3072, 3]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<16x3x1024x1024xi8>
  return %c : !layout.tensor<16x3x1024x1024xi8, strided<[3145728, 1, 3072, 3]>>
}

// NCHW -> NHWC of [16, 64, 112, 112] (P2): H and W merge on both sides, the
// tile crosses the (H*W, C) loops; fused with f32 -> f16 (C1) the output is
// 24.5 MiB, but with the 49 MiB read the traffic exceeds the cache: streaming.
// CHECK-LABEL: function nhwc
// CHECK:       kernel {"op": "layout.contiguous", "loc": "{{.*}}kernels.mlir:[[@LINE+4]]:8", "strategy": "transpose", "loops": [{"size": 16, "src_stride": 802816, "dst_stride": 802816}, {"size": 12544, "src_stride": 1, "dst_stride": 64}, {"size": 64, "src_stride": 12544, "dst_stride": 1}], "vector_width": 8, "tile": [8, 8], "parallel_dim": 0, "chunks": 16, "index_bits": 32, "streaming_stores": true, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NEXT:  kernel {"op": "layout.copy", "loc": "{{.*}}kernels.mlir:[[@LINE+4]]:3", "strategy": "convert+transpose", "loops": [{"size": 16, "src_stride": 802816, "dst_stride": 802816}, {"size": 12544, "src_stride": 1, "dst_stride": 64}, {"size": 64, "src_stride": 12544, "dst_stride": 1}], "vector_width": 8, "tile": [8, 8], "parallel_dim": 0, "chunks": 16, "index_bits": 32, "streaming_stores": true, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NOT:   kernel
func.func @nhwc(%x: !layout.tensor<16x64x112x112xf32>, %y: !layout.tensor<16x64x112x112xf16, strided<[802816, 1, 7168, 64]>>) -> !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<16x64x112x112xf32>
  layout.copy %x, %y : !layout.tensor<16x64x112x112xf32>, !layout.tensor<16x64x112x112xf16, strided<[802816, 1, 7168, 64]>>
  return %c : !layout.tensor<16x64x112x112xf32, strided<[802816, 1, 7168, 64]>>
}

// x[:, ::2].clone() of f32 [8192, 8192] (G1): the rows meet, one stride-2
// loop; expand [1, 8192] -> [8192, 8192] (G2): a stride-0 outer loop; a
// flipped copy walks backwards.
// CHECK-LABEL: function gather_and_broadcast
// CHECK:       kernel {"op": "layout.clone", "loc": "{{.*}}kernels.mlir:[[@LINE+6]]:8", "strategy": "gather", "loops": [{"size": 33554432, "src_stride": 2, "dst_stride": 1}], "vector_width": 8, "tile": null, "parallel_dim": 0, "chunks": 64, "index_bits": 32, "streaming_stores": true, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NEXT:  kernel {"op": "layout.clone", "loc": "{{.*}}kernels.mlir:[[@LINE+7]]:8", "strategy": "broadcast", "loops": [{"size": 8192, "src_stride": 0, "dst_stride": 8192}, {"size": 8192, "src_stride": 1, "dst_stride": 1}], "vector_width": 8, "tile": null, "parallel_dim": 0, "chunks": 64, "index_bits": 32, "streaming_stores": true, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NEXT:  kernel {"op": "layout.contiguous", "loc": "{{.*}}kernels.mlir:[[@LINE+8]]:8", "strategy": "gather", "loops": [{"size": 12, "src_stride": -1, "dst_stride": 1}], "vector_width": 8, "tile": null, "parallel_dim": null, "chunks": 1, "index_bits": 32, "streaming_stores": false, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NOT:   kernel
func.func @gather_and_broadcast(%x: !layout.tensor<8192x8192xf32>, %r: !layout.tensor<1x8192xf32>, %z: !layout.tensor<3x4xf32>) -> (!layout.tensor<8192x4096xf32>, !layout.tensor<8192x8192xf32>, !layout.tensor<3x4xf32>) {
  %s = layout.slice %x dim 1 [0 : 8192 : 2] : !layout.tensor<8192x8192xf32>
  %g = layout.clone %s : !layout.tensor<8192x4096xf32, strided<[8192, 2]>>
  %e = layout.expand %r [8192, 8192] : !layout.tensor<1x8192xf32>
  %b = layout.clone %e : !layout.tensor<8192x8192xf32, strided<[0, 1]>>
  %f = layout.flip %z [0, 1] : !layout.tensor<3x4xf32>
  %c = layout.contiguous %f : !layout.tensor<3x4xf32, strided<[-4, -1], offset: 11>>
  return %g, %b, %c : !layout.tensor<8192x4096xf32>, !layout.tensor<8192x8192xf32>, !layout.tensor<3x4xf32>
}

// Sum over the last dim (R1) reduces inside; over the first (R2) outside,
// 64 chunks of rows each summing a 4 KiB set of outputs (all sets within
// 1/256 of the 64 MiB read); amax over x.T's dim 1 (R4) is an outer reduction
// of contiguous rows, in 16 chunks by the same budget (16 KiB sets); an f16
// sum of everything (R5) accumulates in f32 and splits the reduction itself.
// CHECK-LABEL: function reductions
// CHECK:       kernel {"op": "layout.reduce", "loc": "{{.*}}kernels.mlir:[[@LINE+8]]:9", "strategy": "reduce_inner", "loops": [{"size": 16384, "src_stride": 1024, "dst_stride": 1}, {"size": 1024, "src_stride": 1, "dst_stride": 0}], "vector_width": 8, "tile": null, "parallel_dim": 0, "chunks": 64, "index_bits": 32, "streaming_stores": false, "accumulator": "f32", "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NEXT:  kernel {"op": "layout.reduce", "loc": "{{.*}}kernels.mlir:[[@LINE+8]]:9", "strategy": "reduce_outer", "loops": [{"size": 16384, "src_stride": 1024, "dst_stride": 0}, {"size": 1024, "src_stride": 1, "dst_stride": 1}], "vector_width": 8, "tile": null, "parallel_dim": 0, "chunks": 64, "index_bits": 32, "streaming_stores": false, "accumulator": "f32", "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NEXT:  kernel {"op": "layout.reduce", "loc": "{{.*}}kernels.mlir:[[@LINE+8]]:9", "strategy": "reduce_outer", "loops": [{"size": 4096, "src_stride": 4096, "dst_stride": 0}, {"size": 4096, "src_stride": 1, "dst_stride": 1}], "vector_width": 8, "tile": null, "parallel_dim": 0, "chunks": 16, "index_bits": 32, "streaming_stores": false, "accumulator": "f32", "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NEXT:  kernel {"op": "layout.reduce", "loc": "{{.*}}kernels.mlir:[[@LINE+8]]:9", "strategy": "reduce_inner", "loops": [{"size": 67108864, "src_stride": 1, "dst_stride": 0}], "vector_width": 8, "tile": null, "parallel_dim": 0, "chunks": 64, "index_bits": 32, "streaming_stores": false, "accumulator": "f32", "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NEXT:  kernel {"op": "layout.reduce", "loc": "{{.*}}kernels.mlir:[[@LINE+8]]:9", "strategy": "reduce_inner", "loops": [{"size": 8, "src_stride": 1, "dst_stride": 0}], "vector_width": 4, "tile": null, "parallel_dim": null, "chunks": 1, "index_bits": 32, "streaming_stores": false, "accumulator": "i64", "plan_source": "heuristic", "tuned_knobs": null}
// CHECK-NOT:   kernel
func.func @reductions(%x: !layout.tensor<16384x1024xf32>, %y: !layout.tensor<4096x4096xf32>, %h: !layout.tensor<8192x8192xf16>, %i: !layout.tensor<8xi32>) -> (!layout.tensor<16384xf32>, !layout.tensor<1024xf32>, !layout.tensor<4096xf32>, !layout.tensor<f16>, !layout.tensor<i64>) {
  %t = layout.transpose %y 0, 1 : !layout.tensor<4096x4096xf32>
  %r1 = layout.reduce sum %x dims [1] : !layout.tensor<16384x1024xf32>
  %r2 = layout.reduce sum %x dims [0] : !layout.tensor<16384x1024xf32>
  %r4 = layout.reduce amax %t dims [1] : !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  %r5 = layout.reduce sum %h dims [] : !layout.tensor<8192x8192xf16>
  %ri = layout.reduce sum %i dims [] : !layout.tensor<8xi32>
  return %r1, %r2, %r4, %r5, %ri : !layout.tensor<16384xf32>, !layout.tensor<1024xf32>, !layout.tensor<4096xf32>, !layout.tensor<f16>, !layout.tensor<i64>
}
