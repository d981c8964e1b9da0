// The header declares both entry points per function with the types of
// docs/abi.md, states the layout of results that are views, and compiles as
// C and as C++.
// RUN: layoutc %s --emit=header -o %t.h
// RUN: FileCheck %s --input-file=%t.h
// RUN: cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I%layout_rt_include -x c %t.h
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I%layout_rt_include -x c++ %t.h

// CHECK: #include "layout_rt/layout_rt.h"
// CHECK: extern "C" {

// CHECK-LABEL: /* views
// CHECK-NEXT:  *   arg0: f16 sizes [4, 6] strides [6, 1]
// CHECK-NEXT:  *   result0: f16 sizes [6, 4] strides [4, 1] (new tensor, caller-allocated)
// CHECK-NEXT:  *   result1: view of arg0, no data moved: f16 sizes [2, 6] strides [6, 1] offset 12 elements from arg0's first element
// CHECK-NEXT:  *   kernel: transpose, 1 chunk(s)
// CHECK-NEXT:  */
// CHECK-NEXT: lrt_status_t views(const DLTensor *arg0, DLTensor *result0, const lrt_exec_options_t *options);
// CHECK-NEXT: lrt_status_t views_raw(const uint16_t *arg0, uint16_t *result0, const lrt_exec_options_t *options);
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
// CHECK-NEXT:  *   arg0: i8 sizes [8] strides [1]
// CHECK-NEXT:  *   arg1: i1 sizes [16] strides [1] (written)
// CHECK:      lrt_status_t write_into(const DLTensor *arg0, DLTensor *arg1, const lrt_exec_options_t *options);
// CHECK-NEXT: lrt_status_t write_into_raw(const int8_t *arg0, bool *arg1, const lrt_exec_options_t *options);
func.func @write_into(%x: !layout.tensor<8xi8>, %s: !layout.storage<16xi1>) {
  %v = layout.as_strided %s [8] strides [2] offset 1 : !layout.storage<16xi1>
  layout.copy %x, %v : !layout.tensor<8xi8>, !layout.tensor<8xi1, strided<[2], offset: 1>>
  return
}
