// The header declares both entry points per function with the types of
// docs/abi.md, names arguments after the program's SSA names, states the
// layout of results that are views, and compiles as C and as C++.
// RUN: layoutc %s --emit=header -o %t.h
// RUN: FileCheck %s --input-file=%t.h
// RUN: cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I%layout_rt_include -x c %t.h
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I%layout_rt_include -x c++ %t.h

// CHECK: #include "layout_rt/layout_rt.h"
// CHECK: extern "C" {

// CHECK-LABEL: /* views
// CHECK-NEXT:  *   x: f16 sizes [4, 6] strides [6, 1]
// CHECK-NEXT:  *   result0: f16 sizes [6, 4] strides [4, 1] (new tensor, caller-allocated)
// CHECK-NEXT:  *   result1: view of x, no data moved: f16 sizes [2, 6] strides [6, 1] offset 12 elements from x's first element
// CHECK-NEXT:  *   kernel: transpose, 1 chunk(s)
// CHECK-NEXT:  */
// CHECK-NEXT: lrt_status_t views(const DLTensor *x, DLTensor *result0, const lrt_exec_options_t *options);
// CHECK-NEXT: lrt_status_t views_raw(const uint16_t *x, uint16_t *result0, const lrt_exec_options_t *options);
// CHECK-NEXT: enum { views_result1_rank = 2 };
// CHECK-NEXT: static const int64_t views_result1_sizes[2] LAYOUTC_UNUSED = {2, 6};
// CHECK-NEXT: static const int64_t views_result1_strides[2] LAYOUTC_UNUSED = {6, 1};
// CHECK-NEXT: static const int64_t views_result1_offset LAYOUTC_UNUSED = 12;
func.func @views(%x: !layout.tensor<4x6xf16>)
    -> (!layout.tensor<6x4xf16>, !layout.tensor<2x6xf16, strided<[6, 1], offset: 12>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x6xf16>
  %c = layout.contiguous %t : !layout.tensor<6x4xf16, strided<[1, 6]>>
  %s = layout.slice %x dim 0 [2 :] : !layout.tensor<4x6xf16>
  return %c, %s : !layout.tensor<6x4xf16>, !layout.tensor<2x6xf16, strided<[6, 1], offset: 12>>
}

// In-place writes take a non-const tensor; a storage argument is 1-D.
// CHECK-LABEL: /* write_into
// CHECK-NEXT:  *   x: i8 sizes [8] strides [1]
// CHECK-NEXT:  *   s: i1 sizes [16] strides [1] (written)
// CHECK:      lrt_status_t write_into(const DLTensor *x, DLTensor *s, const lrt_exec_options_t *options);
// CHECK-NEXT: lrt_status_t write_into_raw(const int8_t *x, bool *s, const lrt_exec_options_t *options);
func.func @write_into(%x: !layout.tensor<8xi8>, %s: !layout.storage<16xi1>) {
  %v = layout.as_strided %s [8] strides [2] offset 1 : !layout.storage<16xi1>
  layout.copy %x, %v : !layout.tensor<8xi8>, !layout.tensor<8xi1, strided<[2], offset: 1>>
  return
}

// A name that could not name a C parameter in these prototypes falls back to
// arg<N>: a keyword, another parameter's positional name (result0, arg0 for
// argument 2), a macro-style name, a type-like name (`_t`), `options`, a
// reserved name, a DLPack type, a numeric SSA name. An explicit `layout.name`
// names its argument; `%arg4` at position 4 is its own positional name.
// CHECK-LABEL: /* names
// CHECK:      lrt_status_t names(const DLTensor *arg0, const DLTensor *arg1, const DLTensor *arg2, const DLTensor *arg3, const DLTensor *arg4, const DLTensor *arg5, const DLTensor *arg6, const DLTensor *arg7, const DLTensor *arg8, const DLTensor *arg9, const DLTensor *weights, const DLTensor *NCHW, DLTensor *result0, const lrt_exec_options_t *options);
func.func @names(%int: !layout.tensor<4xf32>, %result0: !layout.tensor<4xf32>,
                 %arg0: !layout.tensor<4xf32>, %INT64_MAX: !layout.tensor<4xf32>,
                 %arg4: !layout.tensor<4xf32>, %size_t: !layout.tensor<4xf32>,
                 %options: !layout.tensor<4xf32>, %_w: !layout.tensor<4xf32>,
                 %DLTensor: !layout.tensor<4xf32>, %0: !layout.tensor<4xf32>,
                 %w: !layout.tensor<4xf32> {layout.name = "weights"},
                 %NCHW: !layout.tensor<4xf32>) -> !layout.tensor<4xf32> {
  %c = layout.clone %w : !layout.tensor<4xf32>
  return %c : !layout.tensor<4xf32>
}
