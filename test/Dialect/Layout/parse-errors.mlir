// RUN: layout-opt %s -split-input-file -verify-diagnostics
// RUN: not layout-opt %s -split-input-file 2>&1 | FileCheck %s

// Malformed syntax: every case is a located parse error (never a crash). The
// first RUN pins each message to its line; the second pins the column.

// The operand type after ':' is required.
func.func @missing_operand_type(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:32: error: expected ':'
  // expected-error @+1 {{expected ':'}}
  %0 = layout.transpose %x 0, 1
  return
}

// -----

// ':' must be followed by a type.
func.func @empty_operand_type(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:34: error: expected non-function type
  // expected-error @+1 {{expected non-function type}}
  %0 = layout.transpose %x 0, 1 :
  return
}

// -----

// '->' must be followed by a type.
func.func @missing_declared_type(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:61: error: expected non-function type
  // expected-error @+1 {{expected non-function type}}
  %0 = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32> ->
  return
}

// -----

// Slice bounds need ':' between start and end.
func.func @slice_missing_colon(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:32: error: expected ':'
  // expected-error @+1 {{expected ':'}}
  %0 = layout.slice %x dim 1 [1 2] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @slice_empty_brackets(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:31: error: expected ':'
  // expected-error @+1 {{expected ':'}}
  %0 = layout.slice %x dim 1 [] : !layout.tensor<3x4xf32>
  return
}

// -----

// A second ':' must be followed by the step.
func.func @slice_missing_step(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:38: error: custom op 'layout.slice' expected a slice step after ':'
  // expected-error @+1 {{custom op 'layout.slice' expected a slice step after ':'}}
  %0 = layout.slice %x dim 1 [1 : 2 :] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @slice_too_many_parts(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:40: error: expected ']'
  // expected-error @+1 {{expected ']'}}
  %0 = layout.slice %x dim 1 [1 : 2 : 1 : 1] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @slice_missing_brackets(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:29: error: expected '['
  // expected-error @+1 {{expected '['}}
  %0 = layout.slice %x dim 1 1 : 2 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @slice_missing_dim(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:24: error: custom op 'layout.slice' expected 'dim'
  // expected-error @+1 {{custom op 'layout.slice' expected 'dim'}}
  %0 = layout.slice %x [1 : 2 : 1] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @slice_bound_not_integer(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:31: error: expected ':'
  // expected-error @+1 {{expected ':'}}
  %0 = layout.slice %x dim 1 [a : 2] : !layout.tensor<3x4xf32>
  return
}

// -----

// Bounds are i64.
func.func @slice_bound_too_large(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:31: error: custom op 'layout.slice' integer value too large
  // expected-error @+1 {{custom op 'layout.slice' integer value too large}}
  %0 = layout.slice %x dim 1 [99999999999999999999 : 2 : 1] : !layout.tensor<3x4xf32>
  return
}

// -----

// An unknown memory format keyword is not consumed, so ':' is expected there.
func.func @contiguous_unknown_format(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:28: error: expected ':'
  // expected-error @+1 {{expected ':'}}
  %0 = layout.contiguous %x nhwc : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @clone_unknown_format(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:23: error: expected ':'
  // expected-error @+1 {{expected ':'}}
  %0 = layout.clone %x channels_first : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @contiguous_two_formats(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:42: error: expected ':'
  // expected-error @+1 {{expected ':'}}
  %0 = layout.contiguous %x channels_last channels_last : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @reduce_unknown_kind(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:22: error: custom op 'layout.reduce' expected string or keyword containing one of the following enum values for attribute 'kind' [sum, mean, prod, amax, amin, argmax, argmin]
  // expected-error @+1 {{custom op 'layout.reduce' expected string or keyword containing one of the following enum values for attribute 'kind' [sum, mean, prod, amax, amin, argmax, argmin]}}
  %0 = layout.reduce median %x dims [0] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @reduce_missing_dims(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:29: error: custom op 'layout.reduce' expected 'dims'
  // expected-error @+1 {{custom op 'layout.reduce' expected 'dims'}}
  %0 = layout.reduce sum %x [0] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @reduce_misspelled_keepdim(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:37: error: expected ':'
  // expected-error @+1 {{expected ':'}}
  %0 = layout.reduce sum %x dims [0] keepdims : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @as_strided_missing_strides(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:36: error: custom op 'layout.as_strided' expected 'strides'
  // expected-error @+1 {{custom op 'layout.as_strided' expected 'strides'}}
  %0 = layout.as_strided %x [3, 4] [4, 1] offset 0 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @as_strided_missing_offset(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:51: error: custom op 'layout.as_strided' expected 'offset'
  // expected-error @+1 {{custom op 'layout.as_strided' expected 'offset'}}
  %0 = layout.as_strided %x [3, 4] strides [4, 1] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @as_strided_float_offset(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:58: error: custom op 'layout.as_strided' expected integer value
  // expected-error @+1 {{custom op 'layout.as_strided' expected integer value}}
  %0 = layout.as_strided %x [3, 4] strides [4, 1] offset 0.5 : !layout.tensor<3x4xf32>
  return
}

// -----

// Dynamic sizes are `index` values.
// expected-note @+1 {{prior use here}}
func.func @as_strided_i64_size(%x: !layout.tensor<3x4xf32>, %i: i64) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:30: error: use of value '%i' expects different type than prior uses: 'index' vs 'i64'
  // expected-error @+1 {{use of value '%i' expects different type than prior uses: 'index' vs 'i64'}}
  %0 = layout.as_strided %x [%i, 4] strides [4, 1] offset 0 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @view_float_size(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+4]]:24: error: custom op 'layout.view' expected integer value
  // CHECK: parse-errors.mlir:[[@LINE+3]]:24: error: expected ']'
  // expected-error @+2 {{custom op 'layout.view' expected integer value}}
  // expected-error @+1 {{expected ']'}}
  %0 = layout.view %x [2.5, 4] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @permute_missing_brackets(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:25: error: expected '['
  // expected-error @+1 {{expected '['}}
  %0 = layout.permute %x 1, 0 : !layout.tensor<3x4xf32>
  return
}

// -----

// squeeze needs its dim list, `[]` for all size-1 dims.
func.func @squeeze_missing_dims(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:25: error: expected '['
  // expected-error @+1 {{expected '['}}
  %0 = layout.squeeze %x : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @movedim_missing_to(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:27: error: custom op 'layout.movedim' expected 'to'
  // expected-error @+1 {{custom op 'layout.movedim' expected 'to'}}
  %0 = layout.movedim %x 0, 1 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @unfold_missing_step(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:38: error: custom op 'layout.unfold' expected 'step'
  // expected-error @+1 {{custom op 'layout.unfold' expected 'step'}}
  %0 = layout.unfold %x dim 1 size 2 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @to_missing_dtype(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:20: error: expected attribute value
  // expected-error @+1 {{expected attribute value}}
  %0 = layout.to %x : !layout.tensor<3x4xf32>
  return
}

// -----

// split defines one result per size.
func.func @split_result_count(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:3: error: operation defines 3 results but was provided 2 to bind
  // expected-error @+1 {{operation defines 3 results but was provided 2 to bind}}
  %a, %b = layout.split %x dim 0 [1, 1, 1] : !layout.tensor<3x4xf32>
  return
}

// -----

// materialize states its result type.
func.func @materialize_missing_result_type(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:84: error: expected '->'
  // expected-error @+1 {{expected '->'}}
  %0 = layout.materialize %x {origin = "a", reason = "b"} : !layout.tensor<3x4xf32>
  return
}

// -----

// The type after ':' must be the operand's type.
// expected-note @+1 {{prior use here}}
func.func @operand_type_mismatch(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:25: error: use of value '%x' expects different type than prior uses: '!layout.storage<12xf32>' vs '!layout.tensor<3x4xf32>'
  // expected-error @+1 {{use of value '%x' expects different type than prior uses: '!layout.storage<12xf32>' vs '!layout.tensor<3x4xf32>'}}
  %0 = layout.transpose %x 0, 1 : !layout.storage<12xf32>
  return
}

// -----

func.func @unknown_op(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+2]]:8: error: custom op 'layout.foo' is unknown
  // expected-error @+1 {{custom op 'layout.foo' is unknown}}
  %0 = layout.foo %x : !layout.tensor<3x4xf32>
  return
}

// -----

// A misspelled op: the closest registered name, within a third of the
// name's length in edits, is suggested ('foo' above is 2 edits from 'to').
func.func @misspelled_op(%x: !layout.tensor<3x4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+4]]:8: error: custom op 'layout.contigous' is unknown
  // CHECK: parse-errors.mlir:[[@LINE+3]]:8: note: did you mean 'layout.contiguous'?
  // expected-error @+2 {{custom op 'layout.contigous' is unknown}}
  // expected-note @+1 {{did you mean 'layout.contiguous'?}}
  %0 = layout.contigous %x : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @misspelled_op_transposed_letters(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+2 {{custom op 'layout.resahpe' is unknown}}
  // expected-note @+1 {{did you mean 'layout.reshape'?}}
  %0 = layout.resahpe %x [12] : !layout.tensor<3x4xf32>
  return
}

// -----

// CHECK: parse-errors.mlir:[[@LINE+2]]:37: error: unknown  type `buffer` in dialect `layout`
// expected-error @+1 {{unknown  type `buffer` in dialect `layout`}}
func.func @unknown_type(%x: !layout.buffer<4xf32>) {
  return
}

// -----

// A negative size is not a dimension.
// CHECK: parse-errors.mlir:[[@LINE+2]]:52: error: expected non-function type
// expected-error @+1 {{expected non-function type}}
func.func @tensor_negative_size(%x: !layout.tensor<-1x4xf32>) {
  return
}

// -----

// CHECK: parse-errors.mlir:[[@LINE+2]]:54: error: expected non-function type
// expected-error @+1 {{expected non-function type}}
func.func @storage_negative_size(%x: !layout.storage<-1xf32>) {
  return
}

// -----

// CHECK: parse-errors.mlir:[[@LINE+2]]:62: error: expected 'x' in dimension list
// expected-error @+1 {{expected 'x' in dimension list}}
func.func @tensor_missing_element_type(%x: !layout.tensor<3x4>) {
  return
}

// -----

// CHECK: parse-errors.mlir:[[@LINE+2]]:48: error: unbalanced '<' character in pretty dialect name
// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
func.func @storage_unclosed(%x: !layout.storage<24xf32) {
  return
}

// -----

// CHECK: parse-errors.mlir:[[@LINE+2]]:66: error: expected '>'
// expected-error @+1 {{expected '>'}}
func.func @tensor_layout_missing_comma(%x: !layout.tensor<3x4xf32 strided<[4, 1]>>) {
  return
}

// -----

// CHECK: parse-errors.mlir:[[@LINE+2]]:78: error: expected '>'
// expected-error @+1 {{expected '>'}}
func.func @tensor_extra_parameter(%x: !layout.tensor<3x4xf32, strided<[4, 1]>, 5>) {
  return
}
