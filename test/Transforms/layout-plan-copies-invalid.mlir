// RUN: layout-opt %s -split-input-file -verify-diagnostics --layout-fold-views --layout-plan-copies | FileCheck %s --enable-var-scope

// Writes that PyTorch's copy_ rejects are compile-time errors with its
// messages (PyTorch 1.13's wording, checked with torch: "...the input tensor
// and the written-to tensor..."); a write between disjoint parts of one
// storage is fine.

// x.expand(3, 4) is (3, 4):(0, 1): each storage element is written by the
// three rows.
func.func @copy_into_expanded(%x: !layout.tensor<4xf32>, %y: !layout.tensor<3x4xf32>) {
  %e = layout.expand %x [3, 4] : !layout.tensor<4xf32>
  // expected-error @below {{more than one element of the written-to tensor refers to a single memory location}}
  layout.copy %y, %e : !layout.tensor<3x4xf32>, !layout.tensor<3x4xf32, strided<[0, 1]>>
  return
}

// -----

// x.copy_(x.T) on a square x: x.T (4, 4):(1, 4) and x (4, 4):(4, 1) share
// every element but not at the same index (only the diagonal matches).
func.func @copy_transpose_into_itself(%x: !layout.tensor<4x4xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  // expected-error @below {{some elements of the input tensor and the written-to tensor refer to a single memory location}}
  layout.copy %t, %x : !layout.tensor<4x4xf32, strided<[1, 4]>>, !layout.tensor<4x4xf32>
  return
}

// -----

// Overlapping rows of one storage: x[0:2] and x[1:3] share row 1.
func.func @copy_between_overlapping_rows(%x: !layout.tensor<4x4xf32>) {
  %a = layout.slice %x dim 0 [0 : 2 : 1] : !layout.tensor<4x4xf32>
  %b = layout.slice %x dim 0 [1 : 3 : 1] : !layout.tensor<4x4xf32>
  // expected-error @below {{some elements of the input tensor and the written-to tensor refer to a single memory location}}
  layout.copy %a, %b : !layout.tensor<2x4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return
}

// -----

// Overlapping unfold windows, (4, 2):(1, 1): element k + 1 is window k's
// second and window k + 1's first. docs/language.md makes a destination that
// overlaps itself an error (PyTorch 1.13 only proves it for stride-0 dims and
// lets this one race).
func.func @copy_into_overlapping_windows(%x: !layout.tensor<5xf32>, %y: !layout.tensor<4x2xf32>) {
  %w = layout.unfold %x dim 0 size 2 step 1 : !layout.tensor<5xf32>
  // expected-error @below {{more than one element of the written-to tensor refers to a single memory location}}
  layout.copy %y, %w : !layout.tensor<4x2xf32>, !layout.tensor<4x2xf32, strided<[1, 1]>>
  return
}

// -----

// Disjoint halves of one argument: x[2:4].copy_(x[0:2]) is accepted and kept.
// CHECK-LABEL: func.func @copy_between_disjoint_halves
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<4x4xf32>)
// CHECK-DAG:     %[[A:.*]] = layout.as_strided %[[X]] [2, 4] strides [4, 1] offset 0
// second half: offset 2 * 4 == 8
// CHECK-DAG:     %[[B:.*]] = layout.as_strided %[[X]] [2, 4] strides [4, 1] offset 8
// CHECK:         layout.copy %[[A]], %[[B]] : !layout.tensor<2x4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 8>>
func.func @copy_between_disjoint_halves(%x: !layout.tensor<4x4xf32>) {
  %a = layout.slice %x dim 0 [0 : 2 : 1] : !layout.tensor<4x4xf32>
  %b = layout.slice %x dim 0 [2 : 4 : 1] : !layout.tensor<4x4xf32>
  layout.copy %a, %b : !layout.tensor<2x4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 8>>
  return
}

// -----

// Interleaved but disjoint: even columns into odd columns of the same rows.
// CHECK-LABEL: func.func @copy_between_interleaved_columns
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-DAG:     %[[E:.*]] = layout.as_strided %[[X]] [3, 2] strides [4, 2] offset 0
// CHECK-DAG:     %[[O:.*]] = layout.as_strided %[[X]] [3, 2] strides [4, 2] offset 1
// CHECK:         layout.copy %[[E]], %[[O]]
func.func @copy_between_interleaved_columns(%x: !layout.tensor<3x4xf32>) {
  %e = layout.slice %x dim 1 [0 : 4 : 2] : !layout.tensor<3x4xf32>
  %o = layout.slice %x dim 1 [1 : 4 : 2] : !layout.tensor<3x4xf32>
  layout.copy %e, %o : !layout.tensor<3x2xf32, strided<[4, 2]>>, !layout.tensor<3x2xf32, strided<[4, 2], offset: 1>>
  return
}

// -----

// A broadcast source is fine: x[1].copy_(x[0:1]) reads row 0 (stride 0 after
// broadcasting) and writes row 1.
// CHECK-LABEL: func.func @copy_broadcast_source
// CHECK:         layout.copy
func.func @copy_broadcast_source(%x: !layout.tensor<4x4xf32>) {
  %a = layout.select %x dim 0 index 0 : !layout.tensor<4x4xf32>
  %b = layout.slice %x dim 0 [1 : 3 : 1] : !layout.tensor<4x4xf32>
  layout.copy %a, %b : !layout.tensor<4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return
}

// -----

// Dynamic rows 1 and 3 of one storage: [x1, 2*x1) and [3*x1, 4*x1) never
// meet, whatever x1 is; the copy stays.
// CHECK-LABEL: func.func @copy_between_dynamic_rows
// CHECK: layout.copy
func.func @copy_between_dynamic_rows(%x: !layout.tensor<?x?xf32>) {
  %a = layout.select %x dim 0 index 1 : !layout.tensor<?x?xf32>
  %b = layout.select %x dim 0 index 3 : !layout.tensor<?x?xf32>
  layout.copy %a, %b : !layout.tensor<?xf32, strided<[1], offset: ?>>, !layout.tensor<?xf32, strided<[1], offset: ?>>
  return
}

// -----

// Dynamic rows 0-1 and 1-2 meet unless x1 is 0: whether PyTorch accepts
// the copy depends on the sizes, which layoutc does not decide at run time.
func.func @copy_between_dynamic_overlapping_rows(%x: !layout.tensor<?x?xf32>) {
  %a = layout.slice %x dim 0 [0 : 2] : !layout.tensor<?x?xf32>
  %b = layout.slice %x dim 0 [1 : 3] : !layout.tensor<?x?xf32>
  // expected-error @below {{cannot prove that the source (?, ?):(?, 1)+0 and the destination (?, ?):(?, 1)+? of the same storage share no element or all of them for every size}}
  layout.copy %a, %b : !layout.tensor<?x?xf32, strided<[?, 1]>>, !layout.tensor<?x?xf32, strided<[?, 1], offset: ?>>
  return
}

// -----

// Every other column of a row-major argument: its elements are distinct for
// every size (a slice keeps indices apart), so the copy stays.
// CHECK-LABEL: func.func @copy_into_dynamic_stepped_columns
// CHECK:         layout.copy
func.func @copy_into_dynamic_stepped_columns(%x: !layout.tensor<?x?xf32>, %y: !layout.tensor<?x?xf32>) {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<?x?xf32>
  layout.copy %y, %v : !layout.tensor<?x?xf32>, !layout.tensor<?x?xf32, strided<[?, 2]>>
  return
}

// -----

// The diagonal of a flipped argument whose strides are known only when it is
// called (the call checks that they keep its elements apart).
// CHECK-LABEL: func.func @copy_into_dynamic_diagonal
// CHECK:         layout.copy
func.func @copy_into_dynamic_diagonal(%x: !layout.tensor<?x?xf32, strided<[?, ?]>>, %y: !layout.tensor<?xf32>) {
  %f = layout.flip %x [0] : !layout.tensor<?x?xf32, strided<[?, ?]>>
  %d = layout.diagonal %f offset 1 dims 0, 1 : !layout.tensor<?x?xf32, strided<[?, ?], offset: ?>>
  layout.copy %y, %d : !layout.tensor<?xf32>, !layout.tensor<?xf32, strided<[?], offset: ?>>
  return
}

// -----

// An expand then a transpose: distinct unless the expanded dim repeats an
// element, which the run-time check PyTorch makes decides.
// CHECK-LABEL: func.func @copy_into_dynamic_expand
// CHECK:         layout.copy
func.func @copy_into_dynamic_expand(%x: !layout.tensor<?x?xf32>, %y: !layout.tensor<?x3xf32>) {
  %e = layout.expand %x [3, -1] : !layout.tensor<?x?xf32>
  %t = layout.transpose %e 0, 1 : !layout.tensor<3x?xf32>
  layout.copy %y, %t : !layout.tensor<?x3xf32>, !layout.tensor<?x3xf32, strided<[1, ?]>>
  return
}

// -----

// A dim of size 2 and stride 0 repeats elements for every size (the
// destination has 6 elements): PyTorch's error, at compile time.
func.func @copy_into_dynamic_broadcast_dim(%x: !layout.tensor<3xf32, strided<[?]>>, %y: !layout.tensor<2x3xf32>) {
  %u = layout.unsqueeze %x dim 0 : !layout.tensor<3xf32, strided<[?]>>
  %e = layout.expand %u [2, -1] : !layout.tensor<1x3xf32, strided<[?, ?]>>
  // expected-error @below {{unsupported operation: more than one element of the written-to tensor refers to a single memory location}}
  layout.copy %y, %e : !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32, strided<[0, ?]>>
  return
}

// -----

// After an expand, a diagonal mixes the expanded dim with another: layoutc
// cannot tell from the strides alone whether elements repeat.
func.func @copy_into_dynamic_expand_diagonal(%x: !layout.tensor<?x?xf32>, %y: !layout.tensor<?xf32>) {
  %e = layout.expand %x [3, -1] : !layout.tensor<?x?xf32>
  %d = layout.diagonal %e offset 0 dims 0, 1 : !layout.tensor<3x?xf32>
  // expected-error @below {{cannot prove that the destination (?):(?)+0 does not overlap itself}}
  layout.copy %y, %d : !layout.tensor<?xf32>, !layout.tensor<?xf32, strided<[?]>>
  return
}

// -----

// Windows that overlap (step 1 < size 2) share elements.
func.func @copy_into_dynamic_overlapping_windows(%x: !layout.tensor<?xf32>, %y: !layout.tensor<?x2xf32>) {
  %w = layout.unfold %x dim 0 size 2 step 1 : !layout.tensor<?xf32>
  // expected-error @below {{cannot prove that the destination (?, 2):(1, 1)+0 does not overlap itself}}
  layout.copy %y, %w : !layout.tensor<?x2xf32>, !layout.tensor<?x2xf32, strided<[1, 1]>>
  return
}
