// RUN: layoutc %s --emit=explain | FileCheck %s
// RUN: not layoutc %s --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=CODEGEN

// A function with dynamic layouts gets a `symbolic` section: each result's
// sizes, strides and offset as expressions of the arguments' sizes (x[k] is
// dim k of argument x), the derived symbols' definitions, which copies
// happen under which condition, and the checks left for the run time.

// CHECK-LABEL: "name": "nhwc"
// CHECK: "symbolic": {"symbols": {"x[0]": "x[0]", "x[1]": "x[1]", "x[2]": "x[2]", "x[3]": "x[3]"},
// CHECK-NEXT: "results": [{"sizes": ["x[0]", "x[2]", "x[3]", "x[1]"], "strides": ["x[1]*x[2]*x[3]", "x[1]*x[3]", "x[1]", "1"], "offset": "0"}],
// CHECK-NEXT: "copies": [{"op": "layout.contiguous", "loc": "{{.*}}explain-dynamic.mlir:16:8", "copies": "unless x[0]*x[1]*x[2]*x[3] == 0 || ((x[1] == 1 || x[2]*x[3] == 1) && (x[3] == 1 || x[1] == 1) && (x[2] == 1 || x[1]*x[3] - x[3] == 0))"}],
// CHECK-NEXT: "checks": []}
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
// CHECK-NEXT: "checks": [{"requires": "x[1] >= 4", "message": "select(): index 3 out of range for tensor of size [s2, x[1]] at dimension 1"}]}
func.func @rows(%x: !layout.tensor<?x?xf32>) -> !layout.tensor<?xf32, strided<[?], offset: ?>> {
  %s = layout.slice %x dim 0 [2 : 7 : 2] : !layout.tensor<?x?xf32>
  %c = layout.select %s dim 1 index 3 : !layout.tensor<?x?xf32, strided<[?, 1], offset: ?>>
  return %c : !layout.tensor<?xf32, strided<[?], offset: ?>>
}

// CODEGEN: error: code generation needs static layouts, but argument #0 has type '!layout.tensor<?x?x?x?xf32>'
