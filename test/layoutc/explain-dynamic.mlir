// RUN: layoutc %s --emit=explain | FileCheck %s
// RUN: layoutc %s --emit=obj,header -o %t && FileCheck %s --check-prefix=CODEGEN < %t.h
// What dynamic code generation cannot compile yet has no kernels, and says
// why.
// RUN: layoutc %S/../Target/CPU/Inputs/dynamic-index.mlir --emit=explain | FileCheck %s --check-prefix=UNCOMPILED
// UNCOMPILED: "kernels": null, "kernels_error": "{{.*}}dynamic-index.mlir:1:1: dynamic code generation needs !layout.tensor or !layout.storage arguments, but argument #1 has type 'index'"}}

// A function with dynamic layouts gets a `symbolic` section: each result's
// sizes, strides and offset as expressions of the arguments' sizes (x[k] is
// dim k of argument x), the derived symbols' definitions, which copies
// happen under which condition, and the checks left for the run time.

// CHECK-LABEL: "name": "nhwc"
// CHECK: "symbolic": {"symbols": {"x[0]": "x[0]", "x[1]": "x[1]", "x[2]": "x[2]", "x[3]": "x[3]"},
// CHECK-NEXT: "results": [{"sizes": ["x[0]", "x[2]", "x[3]", "x[1]"], "strides": ["x[1]*x[2]*x[3]", "x[1]*x[3]", "x[1]", "1"], "offset": "0"}],
// CHECK-NEXT: "copies": [{"op": "layout.contiguous", "loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+7]]:8", "copies": "unless x[0]*x[1]*x[2]*x[3] == 0 || ((x[1] == 1 || x[2]*x[3] == 1) && (x[3] == 1 || x[1] == 1) && (x[2] == 1 || x[1]*x[3] - x[3] == 0))"}],
// CHECK-NEXT: "checks": [],
// Its kernels, planned once for every size: loops of symbolic sizes and
// strides; chunks and index width are chosen at run time.
// CHECK-NEXT: "kernels": [{"loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+3]]:8", "strategy": "transpose", "loops": [{"size": "x[0]", "src_stride": "x[1]*x[2]*x[3]", "dst_stride": "x[1]*x[2]*x[3]"}, {"size": "x[2]*x[3]", "src_stride": "1", "dst_stride": "x[1]"}, {"size": "x[1]", "src_stride": "x[2]*x[3]", "dst_stride": "1"}], "tiled_loops": [1, 2], "square_edge": 8, "vector_width": 8, "parallel_dim": 0, "parallel_fallback_dim": 1, "accumulator": null, "chunks": "run time", "index_bits": "run time", "plan_source": "heuristic"}], "kernels_error": null}}
func.func @nhwc(%x: !layout.tensor<?x?x?x?xf32>) -> !layout.tensor<?x?x?x?xf32> {
  %p = layout.permute %x [0, 2, 3, 1] : !layout.tensor<?x?x?x?xf32>
  %c = layout.contiguous %p : !layout.tensor<?x?x?x?xf32, strided<[?, ?, 1, ?]>>
  return %c : !layout.tensor<?x?x?x?xf32>
}

// A slice's clamped bounds are derived symbols; x[:, 3] needs 4 columns.
// CHECK-LABEL: "name": "rows"
// CHECK: "symbolic": {"symbols": {"x[0]": "x[0]", "x[1]": "x[1]", "s0": "min(2, x[0])", "s1": "min(7, x[0])", "s2": "ceildiv(-s0 + s1, 2)"},
// CHECK-NEXT: "results": [{"sizes": ["s2"], "strides": ["2*x[1]"], "offset": "x[1]*s0 + 3"}],
// CHECK-NEXT: "copies": [],
// CHECK-NEXT: "checks": [{"requires": "x[1] >= 4", "message": "select(): index 3 out of range for tensor of size [s2, x[1]] at dimension 1"}],
// CHECK-NEXT: "kernels": [], "kernels_error": null}}
func.func @rows(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?xf32, strided<[?], offset: ?>> {
  %s = layout.slice %x dim 0 [2 : 7 : 2] : !layout.tensor<?x?xf32>
  %c = layout.select %s dim 1 index 3 : !layout.tensor<?x?xf32, strided<[?, 1], offset: ?>>
  return %c : !layout.tensor<?xf32, strided<[?], offset: ?>>
}

// Compiled, the conditional copy is decided at run time: result0_view
// reports whether the result is x's view (result0 not written) or result0.
// CODEGEN: result0: f32 sizes [x[0], x[2], x[3], x[1]] strides [x[1]*x[2]*x[3], x[1]*x[3], x[1], 1] (or, when x[0]*x[1]*x[2]*x[3] == 0 || {{.*}}, a view of x: see result0_view) (new tensor, caller-allocated)
// CODEGEN: result0_view: NULL (result0 is always written), or where nhwc stores -1 when it wrote result0, and 0 when x[0]*x[1]*x[2]*x[3] == 0 || {{.*}}: then, as PyTorch returns it, the result is x's view sizes [x[0], x[2], x[3], x[1]] strides [x[1]*x[2]*x[3], x[3], 1, x[2]*x[3]] offset 0 elements from x's first element, and result0 is not written
// CODEGEN: lrt_status_t nhwc(const DLTensor *x, DLTensor *result0, int32_t *result0_view, const lrt_exec_options_t *options);
// CODEGEN: lrt_status_t nhwc_raw(const float *x, float *result0, int64_t x_size0, int64_t x_size1, int64_t x_size2, int64_t x_size3, int32_t *result0_view, const lrt_exec_options_t *options);
// CODEGEN: result0: view of x, no data moved: f32 sizes [s2] strides [2*x[1]] offset x[1]*s0 + 3 elements from x's first element
// CODEGEN: lrt_status_t rows_raw(const float *x, int64_t x_size0, int64_t x_size1, const lrt_exec_options_t *options);

// Where the operand is not an argument's view (a clone's), the copy is
// written for every size.
// CODEGEN: result1: f32 sizes [x[1], x[0]] strides [x[0], 1] (written for every size, although PyTorch returns the operand itself when {{.*}}) (new tensor, caller-allocated)
// CODEGEN: lrt_status_t of_clone(const DLTensor *x, DLTensor *result0, DLTensor *result1, const lrt_exec_options_t *options);
// CHECK-LABEL: "name": "of_clone"
// CHECK: "kernels": [{"loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+3]]:8", "strategy": "memcpy"
// CHECK-NEXT: {"loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+4]]:8", "strategy": "transpose"
func.func @of_clone(%x: !layout.tensor<?x?xf32>) -> (!layout.tensor<?x?xf32>, !layout.tensor<?x?xf32>) {
  %k = layout.clone %x : !layout.tensor<?x?xf32>
  %t = layout.transpose %k 0, 1 : !layout.tensor<?x?xf32>
  %c = layout.contiguous %t : !layout.tensor<?x?xf32, strided<[1, ?]>>
  return %k, %c : !layout.tensor<?x?xf32>, !layout.tensor<?x?xf32>
}

// Whether a reshape or flatten is a view depends on run-time sizes where
// the algebra cannot prove the dims mergeable: PyTorch's computeStride runs
// at run time. The result's strides are its view's where it finds them
// (viewable), else the copy's row-major ones.
// CHECK-LABEL: "name": "flat"
// CHECK: "symbolic": {"symbols": {"x[0]": "x[0]", "x[1]": "x[1]", "x[2]": "x[2]", "s0": "computeStride([x[0], x[2], x[1]], [x[1]*x[2], 1, x[2]], [x[0], x[1]*x[2]])[0]", "s1": "computeStride([x[0], x[2], x[1]], [x[1]*x[2], 1, x[2]], [x[0], x[1]*x[2]])[1]", "s2": "viewable([x[0], x[2], x[1]], [x[1]*x[2], 1, x[2]], [x[0], x[1]*x[2]])", "s3": "(s2 != 0) ? s0 : x[1]*x[2]", "s4": "(s2 != 0) ? s1 : 1"},
// CHECK-NEXT: "results": [{"sizes": ["x[0]", "x[1]*x[2]"], "strides": ["s3", "s4"], "offset": "0"}],
// CHECK-NEXT: "copies": [{"op": "layout.flatten", "loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+8]]:8", "copies": "unless s2 != 0"}],
// CHECK-NEXT: "checks": [],
// CHECK-NEXT: "kernels": [{"loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+6]]:8", "strategy": "transpose",
// Returned, it is reported like a conditional contiguous.
// CODEGEN: result0: f32 sizes [x[0], x[1]*x[2]] strides [x[1]*x[2], 1] (or, when s2 != 0, a view of x: see result0_view) (new tensor, caller-allocated)
// CODEGEN: and 0 when s2 != 0: then, as PyTorch returns it, the result is x's view sizes [x[0], x[1]*x[2]] strides [s0, s1] offset 0 elements from x's first element, and result0 is not written
func.func @flat(%x: !layout.tensor<?x?x?xf32>) -> !layout.tensor<?x?xf32, strided<[?, ?]>> {
  %t = layout.transpose %x 1, 2 : !layout.tensor<?x?x?xf32>
  %f = layout.flatten %t dims 1 to 2 : !layout.tensor<?x?x?xf32, strided<[?, 1, ?]>>
  return %f : !layout.tensor<?x?xf32, strided<[?, ?]>>
}

// view checks computeStride's answer at run time, with PyTorch's message.
// CHECK-LABEL: "name": "viewt"
// CHECK: "results": [{"sizes": ["x[0]*x[1]"], "strides": ["s0"], "offset": "0"}],
// CHECK-NEXT: "copies": [],
// CHECK-NEXT: "checks": [{"requires": "s1 != 0", "message": "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."}],
func.func @viewt(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?xf32, strided<[?]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<?x?xf32>
  %v = layout.view %t [-1] : !layout.tensor<?x?xf32, strided<[1, ?]>>
  return %v : !layout.tensor<?xf32, strided<[?]>>
}

// Read by another op, the flatten is a run-time view: the reduction reads
// x where PyTorch views it, the copy (made only then) where it copies.
// CHECK-LABEL: "name": "summed"
// CHECK: "copies": [{"op": "layout.flatten", "loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+5]]:8", "copies": "unless s2 != 0"},
// CHECK-NEXT: {"op": "layout.reduce", "loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+5]]:8", "copies": "always"}],
// CODEGEN: lrt_status_t summed(const DLTensor *x, DLTensor *result0, const lrt_exec_options_t *options);
func.func @summed(%x: !layout.tensor<?x?x?xf32>) -> !layout.tensor<?xf32> {
  %t = layout.transpose %x 1, 2 : !layout.tensor<?x?x?xf32>
  %f = layout.flatten %t dims 1 to 2 : !layout.tensor<?x?x?xf32, strided<[?, 1, ?]>>
  %s = layout.reduce sum %f dims [1] : !layout.tensor<?x?xf32, strided<[?, ?]>>
  return %s : !layout.tensor<?xf32>
}

// A reduction's chunks split its kept rows and have no second choice of
// split loop; argmax runs on one thread, so nothing is split.
// CHECK-LABEL: "name": "colsum"
// CHECK: "strategy": "reduce_outer", {{.*}} "parallel_dim": 0, "parallel_fallback_dim": null, "accumulator": "f32",
func.func @colsum(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?xf32> {
  %r = layout.reduce sum %x dims [0] : !layout.tensor<?x?xf32>
  return %r : !layout.tensor<?xf32>
}

// CHECK-LABEL: "name": "rowargmax"
// CHECK: "strategy": "reduce_inner", {{.*}} "parallel_dim": null, "parallel_fallback_dim": null,
func.func @rowargmax(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?xi64> {
  %r = layout.reduce argmax %x dims [1] : !layout.tensor<?x?xf32>
  return %r : !layout.tensor<?xi64>
}

// A copy into an expanded argument checks at run time, as PyTorch does,
// that no expanded dim of size above 1 repeats an element (stride 0) unless
// the destination is empty.
// CHECK-LABEL: "name": "into_expanded"
// CHECK: "symbolic": {"symbols": {"x[0]": "x[0]", "x[1]": "x[1]", "s0": "(x[0] == 3) ? x[1] : 0"},
// CHECK: {"requires": "3*x[1] == 0 || s0 != 0", "message": "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."}],
func.func @into_expanded(%x: !layout.tensor<?x?xf32>, %y: !layout.tensor<?x3xf32>) {
  %e = layout.expand %x [3, -1] : !layout.tensor<?x?xf32>
  %t = layout.transpose %e 0, 1 : !layout.tensor<3x?xf32>
  layout.copy %y, %t : !layout.tensor<?x3xf32>, !layout.tensor<?x3xf32, strided<[1, ?]>>
  return
}

// as_strided with static sizes, strides and offset over a tensor of dynamic
// sizes checks at run time that the view fits the tensor's storage, with
// PyTorch's message (its storage size counts bytes).
// CHECK-LABEL: "name": "strided"
// CHECK: "symbolic": {"symbols": {"x[0]": "x[0]", "x[1]": "x[1]", "s0": "(x[0]*x[1] == 0) ? 0 : x[0]*x[1]"},
// CHECK: "checks": [{"requires": "s0 >= 25", "message": "setStorage: sizes [3, 4], strides [1, 5], storage offset 7, and itemsize 4 requiring a storage size of 100 are out of bounds for storage of size 4*s0"}],
func.func @strided(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<3x4xf32> {
  %v = layout.as_strided %x [3, 4] strides [1, 5] offset 7 : !layout.tensor<?x?xf32>
  %c = layout.clone %v contiguous : !layout.tensor<3x4xf32, strided<[1, 5], offset: 7>>
  return %c : !layout.tensor<3x4xf32>
}

// clone (preserve_format) of a view that is non-overlapping and dense for
// some sizes only (a slice of a dynamic dim): PyTorch's rule runs at run
// time, keeping the operand's strides where it is dense, else dense strides
// in its stride order. The kernel keeps the loop order of the sizes planned
// for: the row innermost.
// CHECK-LABEL: "name": "preserve_slice"
// CHECK: "symbolic": {"symbols": {"x[0]": "x[0]", "x[1]": "x[1]", "s0": "min(5, x[1])", "s1": "preserveStrides([x[0], s0], [x[1], 1])[0]", "s2": "preserveStrides([x[0], s0], [x[1], 1])[1]"},
// CHECK-NEXT: "results": [{"sizes": ["x[0]", "s0"], "strides": ["s1", "s2"], "offset": "0"}],
// CHECK-NEXT: "copies": [{"op": "layout.clone", "loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+10]]:8", "copies": "always"}],
// CHECK: "kernels": [{"loc": "{{.*}}explain-dynamic.mlir:[[#@LINE+9]]:8", "strategy": "gather", "loops": [{"size": "x[0]", "src_stride": "x[1]", "dst_stride": "s1"}, {"size": "s0", "src_stride": "1", "dst_stride": "s2"}],
// The header defines the derived values its layouts name.
// CODEGEN: result0: f32 sizes [x[0], s0] strides [s1, s2] (new tensor, caller-allocated)
// CODEGEN-NEXT: where s0 = min(5, x[1])
// CODEGEN-NEXT: where s1 = preserveStrides([x[0], s0], [x[1], 1])[0]
// CODEGEN-NEXT: where s2 = preserveStrides([x[0], s0], [x[1], 1])[1]
// CODEGEN-NEXT: preserve_slice_raw takes the dynamic sizes after the pointers
func.func @preserve_slice(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?x?xf32, strided<[?, ?]>> {
  %s = layout.slice %x dim 1 [0 : 5] : !layout.tensor<?x?xf32>
  %c = layout.clone %s : !layout.tensor<?x?xf32, strided<[?, 1]>>
  return %c : !layout.tensor<?x?xf32, strided<[?, ?]>>
}
