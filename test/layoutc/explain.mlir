// RUN: layoutc %s --emit=explain | FileCheck %s --check-prefix=RAW
// RUN: layoutc %s --emit=explain | %python -c "import json,sys; json.load(sys.stdin)"
// RUN: layoutc %s --emit=explain | %python %S/Inputs/json_lines.py | FileCheck %s --enable-var-scope
// README.md's example (examples/transpose.mlir) as Inputs/prog.mlir, from its
// own directory, so that "loc" is exactly "prog.mlir:4:8":
// RUN: cd %S/Inputs && layoutc prog.mlir --emit=explain | FileCheck %s --check-prefix=DOC

// `--emit=explain` (docs/language.md, "What the compiler says"): for each
// function, each result's sizes, strides, offset, dtype, aliased argument
// (or null for new storage), contiguity and channels_last contiguity; and
// each copy that remains after optimization with its op, source location,
// bytes moved (read + written), reason and kernel. json_lines.py prints each
// result and copy as one line of json.dumps (which spells JSON the way
// README.md's example does) and checks the keys and their order.

// DOC:      {"functions": [{"name": "f",
// DOC-NEXT:   "results": [{"sizes": [4, 3], "strides": [1, 4], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": false, "channels_last": false},
// DOC-NEXT:               {"sizes": [4, 3], "strides": [3, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}],
// 12 f32 elements read (48 bytes) and written (48 bytes) == 96
// DOC-NEXT:   "copies": [{"op": "layout.contiguous", "loc": "prog.mlir:4:8", "bytes": 96, "reason": "operand strides [1, 4] are not row-major", "kernel": "transpose"}],
// The 4x3 transpose's plan (kernels.mlir checks plans in detail): tiles are
// clipped to the 4 and 3 elements there are.
// DOC-NEXT:   "kernels": [{"op": "layout.contiguous", "loc": "prog.mlir:4:8", "strategy": "transpose", "loops": [{"size": 4, "src_stride": 1, "dst_stride": 3}, {"size": 3, "src_stride": 4, "dst_stride": 1}], "vector_width": 8, "tile": [4, 3], "parallel_dim": null, "chunks": 1, "index_bits": 32, "streaming_stores": false, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}]}]}
// DOC-EMPTY:

// The raw text starts the document and lists every function once.
// RAW:     {"functions": [{"name": "transpose_and_copy",
// RAW-NOT: "name": "external"
// RAW:     {"name": "no_results",
// RAW-NOT: "name"

// CHECK-LABEL: function transpose_and_copy
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [1, 4], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": false, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [3, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}explain.mlir:[[@LINE+4]]:8", "bytes": 96, "reason": "operand strides [1, 4] are not row-major", "kernel": "transpose"}
// CHECK-NOT:   {{^(result|copy) }}
func.func @transpose_and_copy(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %t, %c : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>
}

// Declarations have no results to explain.
func.func private @external(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32>

// aliases names the argument whose storage a result views, by index.
// CHECK-LABEL: function aliases
// %b[1]: offset 1 * 4 == 4, a view of argument 1
// CHECK-NEXT:  result {"sizes": [4], "strides": [1], "offset": 4, "dtype": "f32", "aliases": 1, "contiguous": true, "channels_last": false}
// as_strided of the storage argument 2
// CHECK-NEXT:  result {"sizes": [2, 2], "strides": [4, 2], "offset": 1, "dtype": "f32", "aliases": 2, "contiguous": false, "channels_last": false}
// argument 0 itself
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// a no-op contiguous() is a view of argument 1
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": 1, "contiguous": true, "channels_last": false}
// a reduction is new storage
// CHECK-NEXT:  result {"sizes": [4], "strides": [1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NOT:   {{^(result|copy) }}
func.func @aliases(%a: !layout.tensor<2xf32>, %b: !layout.tensor<3x4xf32>, %s: !layout.storage<12xf32>) -> (!layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>, !layout.tensor<2xf32>, !layout.tensor<3x4xf32>, !layout.tensor<4xf32>) {
  %r = layout.select %b dim 0 index 1 : !layout.tensor<3x4xf32>
  %v = layout.as_strided %s [2, 2] strides [4, 2] offset 1 : !layout.storage<12xf32>
  %c = layout.contiguous %b : !layout.tensor<3x4xf32>
  %sum = layout.reduce sum %b dims [0] : !layout.tensor<3x4xf32>
  return %r, %v, %a, %c, %sum : !layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>, !layout.tensor<2xf32>, !layout.tensor<3x4xf32>, !layout.tensor<4xf32>
}

// contiguous and channels_last follow is_contiguous(memory_format=...),
// which ignores size-1 dims (checked with torch).
// CHECK-LABEL: function contiguity
// NCHW (2, 3, 4, 5)
// CHECK-NEXT:  result {"sizes": [2, 3, 4, 5], "strides": [60, 20, 5, 1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// NHWC strides (H*W*C, 1, W*C, C) == (60, 1, 15, 3)
// CHECK-NEXT:  result {"sizes": [2, 3, 4, 5], "strides": [60, 1, 15, 3], "offset": 0, "dtype": "f32", "aliases": 1, "contiguous": false, "channels_last": true}
// C == 1: both formats at once
// CHECK-NEXT:  result {"sizes": [2, 1, 4, 5], "strides": [20, 20, 5, 1], "offset": 0, "dtype": "f32", "aliases": 2, "contiguous": true, "channels_last": true}
// size-1 dims permuted: (1, 3, 1, 4):(4, 4, 12, 1) is still contiguous
// CHECK-NEXT:  result {"sizes": [1, 3, 1, 4], "strides": [4, 4, 12, 1], "offset": 0, "dtype": "f32", "aliases": 3, "contiguous": true, "channels_last": false}
// a column slice is neither
// CHECK-NEXT:  result {"sizes": [2, 3, 4, 2], "strides": [60, 20, 5, 1], "offset": 1, "dtype": "f32", "aliases": 0, "contiguous": false, "channels_last": false}
// CHECK-NOT:   {{^(result|copy) }}
func.func @contiguity(%x: !layout.tensor<2x3x4x5xf32>, %y: !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, %z: !layout.tensor<2x1x4x5xf32>, %w: !layout.tensor<1x3x1x4xf32>) -> (!layout.tensor<2x3x4x5xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x1x4x5xf32>, !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>>, !layout.tensor<2x3x4x2xf32, strided<[60, 20, 5, 1], offset: 1>>) {
  %p = layout.permute %w [2, 1, 0, 3] : !layout.tensor<1x3x1x4xf32>
  %s = layout.narrow %x dim 3 start 1 length 2 : !layout.tensor<2x3x4x5xf32>
  return %x, %y, %z, %p, %s : !layout.tensor<2x3x4x5xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x1x4x5xf32>, !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>>, !layout.tensor<2x3x4x2xf32, strided<[60, 20, 5, 1], offset: 1>>
}

// Every element type's name, and a scalar (rank 0) result.
// CHECK-LABEL: function dtypes
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "i1", "aliases": 0,
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "i8", "aliases": 1,
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "i16", "aliases": 2,
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "i32", "aliases": 3,
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "i64", "aliases": 4,
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "ui8", "aliases": 5,
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "f16", "aliases": 6,
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "bf16", "aliases": 7,
// CHECK-NEXT:  result {"sizes": [2], "strides": [1], "offset": 0, "dtype": "f64", "aliases": 8,
// f64[1]: offset 1, no dims
// CHECK-NEXT:  result {"sizes": [], "strides": [], "offset": 1, "dtype": "f64", "aliases": 8, "contiguous": true, "channels_last": false}
// CHECK-NOT:   {{^(result|copy) }}
func.func @dtypes(%a: !layout.tensor<2xi1>, %b: !layout.tensor<2xi8>, %c: !layout.tensor<2xi16>, %d: !layout.tensor<2xi32>, %e: !layout.tensor<2xi64>, %f: !layout.tensor<2xui8>, %g: !layout.tensor<2xf16>, %h: !layout.tensor<2xbf16>, %i: !layout.tensor<2xf64>) -> (!layout.tensor<2xi1>, !layout.tensor<2xi8>, !layout.tensor<2xi16>, !layout.tensor<2xi32>, !layout.tensor<2xi64>, !layout.tensor<2xui8>, !layout.tensor<2xf16>, !layout.tensor<2xbf16>, !layout.tensor<2xf64>, !layout.tensor<f64, strided<[], offset: 1>>) {
  %s = layout.select %i dim 0 index 1 : !layout.tensor<2xf64>
  return %a, %b, %c, %d, %e, %f, %g, %h, %i, %s : !layout.tensor<2xi1>, !layout.tensor<2xi8>, !layout.tensor<2xi16>, !layout.tensor<2xi32>, !layout.tensor<2xi64>, !layout.tensor<2xui8>, !layout.tensor<2xf16>, !layout.tensor<2xbf16>, !layout.tensor<2xf64>, !layout.tensor<f64, strided<[], offset: 1>>
}

// Copies: each kind of kernel, with the bytes it reads plus writes.
// CHECK-LABEL: function copies
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "f16", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [3, 2], "strides": [2, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [2, 3, 4, 5], "strides": [60, 1, 15, 3], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": false, "channels_last": true}
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// clone of a row-major x: 48 + 48 bytes, one contiguous run each side
// CHECK-NEXT:  copy {"op": "layout.clone", "loc": "{{.*}}explain.mlir:[[@LINE+16]]:9", "bytes": 96, "reason": "clone always allocates new storage", "kernel": "memcpy"}
// x.to(f16): 12 * 4 read + 12 * 2 written == 72
// CHECK-NEXT:  copy {"op": "layout.to", "loc": "{{.*}}explain.mlir:[[@LINE+15]]:9", "bytes": 72, "reason": "dtype conversion f32 -> f16", "kernel": "convert+memcpy"}
// v.expand(3, 4).clone(): the source has a stride-0 dim; 12 elements read
// and written, 12 * 4 * 2 == 96
// CHECK-NEXT:  copy {"op": "layout.clone", "loc": "{{.*}}explain.mlir:[[@LINE+14]]:9", "bytes": 96, "reason": "clone always allocates new storage", "kernel": "broadcast"}
// x[:, ::2].clone(): (3, 2):(4, 2) -> (3, 2):(2, 1), 24 + 24 bytes
// CHECK-NEXT:  copy {"op": "layout.clone", "loc": "{{.*}}explain.mlir:[[@LINE+14]]:9", "bytes": 48, "reason": "clone always allocates new storage", "kernel": "gather"}
// NCHW -> NHWC: 120 elements * 4 bytes * 2 == 960
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}explain.mlir:[[@LINE+13]]:9", "bytes": 960, "reason": "operand strides [60, 20, 5, 1] are not channels_last", "kernel": "transpose"}
// x.flip(0).contiguous(): a negative stride is read by a gather
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}explain.mlir:[[@LINE+13]]:9", "bytes": 96, "reason": "operand strides [-4, 1] are not row-major", "kernel": "gather"}
// y.copy_(x.T): writes into existing storage, 12 * (4 + 2) == 72 bytes
// CHECK-NEXT:  copy {"op": "layout.copy", "loc": "{{.*}}explain.mlir:[[@LINE+13]]:3", "bytes": 72, "reason": "writes into the destination's existing storage", "kernel": "convert+transpose"}
// CHECK-NOT:   {{^(result|copy) }}
func.func @copies(%x: !layout.tensor<3x4xf32>, %v: !layout.tensor<4xf32>, %z: !layout.tensor<2x3x4x5xf32>, %y: !layout.tensor<4x3xf16>) -> (!layout.tensor<3x4xf32>, !layout.tensor<3x4xf16>, !layout.tensor<3x4xf32>, !layout.tensor<3x2xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<3x4xf32>) {
  %cx = layout.clone %x : !layout.tensor<3x4xf32>
  %hx = layout.to %x f16 : !layout.tensor<3x4xf32>
  %e = layout.expand %v [3, 4] : !layout.tensor<4xf32>
  %ce = layout.clone %e : !layout.tensor<3x4xf32, strided<[0, 1]>>
  %s = layout.slice %x dim 1 [0 : 4 : 2] : !layout.tensor<3x4xf32>
  %cs = layout.clone %s : !layout.tensor<3x2xf32, strided<[4, 2]>>
  %cl = layout.contiguous %z channels_last : !layout.tensor<2x3x4x5xf32>
  %f = layout.flip %x [0] : !layout.tensor<3x4xf32>
  %cf = layout.contiguous %f : !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  layout.copy %t, %y : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf16>
  return %cx, %hx, %ce, %cs, %cl, %cf : !layout.tensor<3x4xf32>, !layout.tensor<3x4xf16>, !layout.tensor<3x4xf32>, !layout.tensor<3x2xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<3x4xf32>
}

// Optimized-away copies are not listed; a fused chain is listed once, at
// the location of the copy that remains (the outer contiguous), with the
// bytes of that one copy.
// CHECK-LABEL: function fused_and_removed
// CHECK-NEXT:  result {"sizes": [4, 2, 3], "strides": [6, 3, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [2, 3, 4], "strides": [12, 4, 1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [3], "strides": [1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// 24 f32 elements * 4 bytes * 2 == 192
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}explain.mlir:[[@LINE+6]]:9", "bytes": 192, "reason": "operand strides [2, 1, 8] are not row-major; fused with the copy of layout.contiguous at {{.*}}explain.mlir:[[@LINE+4]]:9", "kernel": "transpose"}
// CHECK-NOT:   {{^(result|copy) }}
func.func @fused_and_removed(%x: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<4x2x3xf32>, !layout.tensor<2x3x4xf32>, !layout.tensor<3xf32>) {
  %p1 = layout.permute %x [1, 2, 0] : !layout.tensor<2x3x4xf32>
  %c1 = layout.contiguous %p1 : !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>
  %p2 = layout.permute %c1 [1, 2, 0] : !layout.tensor<3x4x2xf32>
  %c2 = layout.contiguous %p2 : !layout.tensor<4x2x3xf32, strided<[2, 1, 8]>>
  %cx = layout.contiguous %x : !layout.tensor<2x3x4xf32>
  %t = layout.transpose %x 0, 2 : !layout.tensor<2x3x4xf32>
  %ct = layout.contiguous %t : !layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>
  %r = layout.reduce sum %ct dims [0, 2] : !layout.tensor<4x3x2xf32>
  return %c2, %cx, %r : !layout.tensor<4x2x3xf32>, !layout.tensor<2x3x4xf32>, !layout.tensor<3xf32>
}

// A function without results or copies.
// CHECK-LABEL: function no_results
// CHECK-NOT:   result
// CHECK-NOT:   copy
func.func @no_results(%x: !layout.tensor<3x4xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  return
}
