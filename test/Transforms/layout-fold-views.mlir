// RUN: layout-opt %s --layout-fold-views | FileCheck %s --enable-var-scope
// RUN: layout-opt %s --layout-fold-views --layout-fold-views | FileCheck %s --enable-var-scope

// Every chain of view ops folds into ONE layout.as_strided of its storage
// root (a function argument, a storage argument or an allocating op), whose
// sizes, strides and offset are what PyTorch 1.13 computes for the chain.
// Each expected layout below was checked with torch (size(), stride(),
// storage_offset()); chains with the `flip` extension were checked with
// NumPy's as_strided against torch.flip's values. Strides and offsets count
// elements. The second RUN line checks that folding is idempotent.
// Slices here spell their step; layout-fold-views-slice.mlir covers the
// shorthand forms ([1 :], [: 2], [:]).

// The Passes.td example: x.T[1] is column 1 of x.
// CHECK-LABEL: func.func @transpose_select
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NOT:     layout.transpose
// CHECK-NOT:     layout.select
// x.T: (4, 3):(1, 4); [1] along the stride-1 dim: offset 0 + 1 * 1 == 1.
// CHECK:         %[[V:.*]] = layout.as_strided %[[X]] [3] strides [4] offset 1 : !layout.tensor<3x4xf32> -> !layout.tensor<3xf32, strided<[4], offset: 1>>
// CHECK-NEXT:    return %[[V]]
func.func @transpose_select(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3xf32, strided<[4], offset: 1>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %s = layout.select %t dim 0 index 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %s : !layout.tensor<3xf32, strided<[4], offset: 1>>
}

// permute, slice with a step, select with a negative index, unsqueeze, expand.
// CHECK-LABEL: func.func @permute_slice_select_unsqueeze_expand
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<2x3x4x5xf32>)
// CHECK-NOT:     layout.permute
// CHECK-NOT:     layout.slice
// CHECK-NOT:     layout.select
// CHECK-NOT:     layout.unsqueeze
// CHECK-NOT:     layout.expand
// x: (2, 3, 4, 5):(60, 20, 5, 1)
// permute [3, 1, 0, 2]:       (5, 3, 2, 4):(1, 20, 60, 5)+0
// slice dim 3 [1:4:2]:        (5, 3, 2, 2):(1, 20, 60, 10)+5    offset: 1 * 5 == 5, stride 2 * 5 == 10
// select dim 1 index -1 (2):  (5, 2, 2):(1, 60, 10)+45          offset: 5 + 2 * 20 == 45
// unsqueeze dim 0:            (1, 5, 2, 2):(5, 1, 60, 10)+45    new stride: 5 * 1 == 5
// expand [3, -1, -1, -1]:     (3, 5, 2, 2):(0, 1, 60, 10)+45
// CHECK:         %[[V:.*]] = layout.as_strided %[[X]] [3, 5, 2, 2] strides [0, 1, 60, 10] offset 45 : !layout.tensor<2x3x4x5xf32> -> !layout.tensor<3x5x2x2xf32, strided<[0, 1, 60, 10], offset: 45>>
// CHECK-NEXT:    return %[[V]]
func.func @permute_slice_select_unsqueeze_expand(%x: !layout.tensor<2x3x4x5xf32>) -> !layout.tensor<3x5x2x2xf32, strided<[0, 1, 60, 10], offset: 45>> {
  %p = layout.permute %x [3, 1, 0, 2] : !layout.tensor<2x3x4x5xf32>
  %s = layout.slice %p dim 3 [1 : 4 : 2] : !layout.tensor<5x3x2x4xf32, strided<[1, 20, 60, 5]>>
  %r = layout.select %s dim 1 index -1 : !layout.tensor<5x3x2x2xf32, strided<[1, 20, 60, 10], offset: 5>>
  %u = layout.unsqueeze %r dim 0 : !layout.tensor<5x2x2xf32, strided<[1, 60, 10], offset: 45>>
  %e = layout.expand %u [3, -1, -1, -1] : !layout.tensor<1x5x2x2xf32, strided<[5, 1, 60, 10], offset: 45>>
  return %e : !layout.tensor<3x5x2x2xf32, strided<[0, 1, 60, 10], offset: 45>>
}

// squeeze, view (with -1, and with an inserted size-1 dim), unflatten,
// movedim, narrow, transpose with a negative dim.
// CHECK-LABEL: func.func @squeeze_view_unflatten_movedim_narrow_transpose
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<2x1x12xf32>)
// CHECK-NOT:     layout.squeeze
// CHECK-NOT:     layout.view
// CHECK-NOT:     layout.unflatten
// CHECK-NOT:     layout.movedim
// CHECK-NOT:     layout.narrow
// CHECK-NOT:     layout.transpose
// x: (2, 1, 12):(12, 12, 1)
// squeeze []:                 (2, 12):(12, 1)
// view [2, 3, -1]:            (2, 3, 4):(12, 4, 1)              -1 == 24 / (2 * 3) == 4
// unflatten dim 2 [2, 2]:     (2, 3, 2, 2):(12, 4, 2, 1)
// movedim 0 to 3:             (3, 2, 2, 2):(4, 2, 1, 12)
// narrow dim 0 start 1 len 2: (2, 2, 2, 2):(4, 2, 1, 12)+4      offset: 1 * 4 == 4
// transpose 1, -2 (== 2):     (2, 2, 2, 2):(4, 1, 2, 12)+4
// view [2, 2, 2, 1, 2]:       (2, 2, 2, 1, 2):(4, 1, 2, 24, 12)+4
//   (computeStride gives the inserted size-1 dim the stride 12 * 2 == 24 of
//   the chunk it precedes, as torch does)
// CHECK:         %[[V:.*]] = layout.as_strided %[[X]] [2, 2, 2, 1, 2] strides [4, 1, 2, 24, 12] offset 4 : !layout.tensor<2x1x12xf32> -> !layout.tensor<2x2x2x1x2xf32, strided<[4, 1, 2, 24, 12], offset: 4>>
// CHECK-NEXT:    return %[[V]]
func.func @squeeze_view_unflatten_movedim_narrow_transpose(%x: !layout.tensor<2x1x12xf32>) -> !layout.tensor<2x2x2x1x2xf32, strided<[4, 1, 2, 24, 12], offset: 4>> {
  %q = layout.squeeze %x [] : !layout.tensor<2x1x12xf32>
  %v = layout.view %q [2, 3, -1] : !layout.tensor<2x12xf32>
  %u = layout.unflatten %v dim 2 [2, 2] : !layout.tensor<2x3x4xf32>
  %m = layout.movedim %u 0 to 3 : !layout.tensor<2x3x2x2xf32>
  %n = layout.narrow %m dim 0 start 1 length 2 : !layout.tensor<3x2x2x2xf32, strided<[4, 2, 1, 12]>>
  %t = layout.transpose %n 1, -2 : !layout.tensor<2x2x2x2xf32, strided<[4, 2, 1, 12], offset: 4>>
  %w = layout.view %t [2, 2, 2, 1, 2] : !layout.tensor<2x2x2x2xf32, strided<[4, 1, 2, 12], offset: 4>>
  return %w : !layout.tensor<2x2x2x1x2xf32, strided<[4, 1, 2, 24, 12], offset: 4>>
}

// diagonal, unfold, flip (ext: a negative stride), transpose.
// CHECK-LABEL: func.func @diagonal_unfold_flip_transpose
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4x5xf32>)
// CHECK-NOT:     layout.diagonal
// CHECK-NOT:     layout.unfold
// CHECK-NOT:     layout.flip
// CHECK-NOT:     layout.transpose
// x: (3, 4, 5):(20, 5, 1)
// diagonal offset 1 dims 1, 2: (3, 4):(20, 6)+1      size min(4, 5 - 1) == 4, stride 5 + 1 == 6, offset 1 * 1 == 1
// unfold dim 1 size 2 step 1:  (3, 3, 2):(20, 6, 6)+1  (4 - 2) / 1 + 1 == 3 windows
// flip [0]:                    (3, 3, 2):(-20, 6, 6)+41  offset: 1 + (3 - 1) * 20 == 41
// transpose 0, 2:              (2, 3, 3):(6, 6, -20)+41
// CHECK:         %[[V:.*]] = layout.as_strided %[[X]] [2, 3, 3] strides [6, 6, -20] offset 41 : !layout.tensor<3x4x5xf32> -> !layout.tensor<2x3x3xf32, strided<[6, 6, -20], offset: 41>>
// CHECK-NEXT:    return %[[V]]
func.func @diagonal_unfold_flip_transpose(%x: !layout.tensor<3x4x5xf32>) -> !layout.tensor<2x3x3xf32, strided<[6, 6, -20], offset: 41>> {
  %d = layout.diagonal %x offset 1 dims 1, 2 : !layout.tensor<3x4x5xf32>
  %w = layout.unfold %d dim 1 size 2 step 1 : !layout.tensor<3x4xf32, strided<[20, 6], offset: 1>>
  %f = layout.flip %w [0] : !layout.tensor<3x3x2xf32, strided<[20, 6, 6], offset: 1>>
  %t = layout.transpose %f 0, 2 : !layout.tensor<3x3x2xf32, strided<[-20, 6, 6], offset: 41>>
  return %t : !layout.tensor<2x3x3xf32, strided<[6, 6, -20], offset: 41>>
}

// All sixteen view ops in one chain over a storage argument; both results
// of the final split fold onto the storage.
// CHECK-LABEL: func.func @all_view_ops
// CHECK-SAME:    (%[[S:.*]]: !layout.storage<130xf32>)
// CHECK-NOT:     layout.view
// CHECK-NOT:     layout.unflatten
// CHECK-NOT:     layout.permute
// CHECK-NOT:     layout.transpose
// CHECK-NOT:     layout.movedim
// CHECK-NOT:     layout.slice
// CHECK-NOT:     layout.select
// CHECK-NOT:     layout.narrow
// CHECK-NOT:     layout.diagonal
// CHECK-NOT:     layout.unsqueeze
// CHECK-NOT:     layout.expand
// CHECK-NOT:     layout.squeeze
// CHECK-NOT:     layout.unfold
// CHECK-NOT:     layout.flip
// CHECK-NOT:     layout.split
// as_strided [2, 3, 4, 5] [60, 20, 5, 1] 7: elements 7 .. 7 + 119 == 126 < 130
// view [6, 20]:               (6, 20):(20, 1)+7
// unflatten dim 1 [4, 5]:     (6, 4, 5):(20, 5, 1)+7
// permute [2, 0, 1]:          (5, 6, 4):(1, 20, 5)+7
// transpose 1, 2:             (5, 4, 6):(1, 5, 20)+7
// movedim 0 to 2:             (4, 6, 5):(5, 20, 1)+7
// slice dim 1 [1::2]:         (4, 3, 5):(5, 40, 1)+27      offset: 7 + 1 * 20 == 27
// select dim 2 index -2 (3):  (4, 3):(5, 40)+30            offset: 27 + 3 * 1 == 30
// narrow dim 0 start 1 len 3: (3, 3):(5, 40)+35            offset: 30 + 1 * 5 == 35
// diagonal offset 0 dims 0,1: (3):(45)+35                  stride: 5 + 40 == 45
// unsqueeze dim 0:            (1, 3):(135, 45)+35          new stride: 3 * 45 == 135
// expand [2, -1, -1]:         (2, 1, 3):(0, 135, 45)+35
// squeeze [1]:                (2, 3):(0, 45)+35
// unfold dim 1 size 2 step 1: (2, 2, 2):(0, 45, 45)+35
// flip [1]:                   (2, 2, 2):(0, -45, 45)+80    offset: 35 + (2 - 1) * 45 == 80
// split dim 2 [1, 1]:         (2, 2, 1):(0, -45, 45)+80 and +125  (80 + 1 * 45)
// CHECK:         %[[A:.*]] = layout.as_strided %[[S]] [2, 2, 1] strides [0, -45, 45] offset 80 : !layout.storage<130xf32> -> !layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 80>>
// CHECK:         %[[B:.*]] = layout.as_strided %[[S]] [2, 2, 1] strides [0, -45, 45] offset 125 : !layout.storage<130xf32> -> !layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 125>>
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @all_view_ops(%s: !layout.storage<130xf32>) -> (!layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 80>>, !layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 125>>) {
  %a = layout.as_strided %s [2, 3, 4, 5] strides [60, 20, 5, 1] offset 7 : !layout.storage<130xf32>
  %v = layout.view %a [6, 20] : !layout.tensor<2x3x4x5xf32, strided<[60, 20, 5, 1], offset: 7>>
  %u = layout.unflatten %v dim 1 [4, 5] : !layout.tensor<6x20xf32, strided<[20, 1], offset: 7>>
  %p = layout.permute %u [2, 0, 1] : !layout.tensor<6x4x5xf32, strided<[20, 5, 1], offset: 7>>
  %t = layout.transpose %p 1, 2 : !layout.tensor<5x6x4xf32, strided<[1, 20, 5], offset: 7>>
  %m = layout.movedim %t 0 to 2 : !layout.tensor<5x4x6xf32, strided<[1, 5, 20], offset: 7>>
  %sl = layout.slice %m dim 1 [1 :: 2] : !layout.tensor<4x6x5xf32, strided<[5, 20, 1], offset: 7>>
  %se = layout.select %sl dim 2 index -2 : !layout.tensor<4x3x5xf32, strided<[5, 40, 1], offset: 27>>
  %n = layout.narrow %se dim 0 start 1 length 3 : !layout.tensor<4x3xf32, strided<[5, 40], offset: 30>>
  %d = layout.diagonal %n offset 0 dims 0, 1 : !layout.tensor<3x3xf32, strided<[5, 40], offset: 35>>
  %us = layout.unsqueeze %d dim 0 : !layout.tensor<3xf32, strided<[45], offset: 35>>
  %e = layout.expand %us [2, -1, -1] : !layout.tensor<1x3xf32, strided<[135, 45], offset: 35>>
  %sq = layout.squeeze %e [1] : !layout.tensor<2x1x3xf32, strided<[0, 135, 45], offset: 35>>
  %uf = layout.unfold %sq dim 1 size 2 step 1 : !layout.tensor<2x3xf32, strided<[0, 45], offset: 35>>
  %fl = layout.flip %uf [1] : !layout.tensor<2x2x2xf32, strided<[0, 45, 45], offset: 35>>
  %r0, %r1 = layout.split %fl dim 2 [1, 1] : !layout.tensor<2x2x2xf32, strided<[0, -45, 45], offset: 80>>
  return %r0, %r1 : !layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 80>>, !layout.tensor<2x2x1xf32, strided<[0, -45, 45], offset: 125>>
}

// split of a transposed argument; a view of one split result folds too.
// CHECK-LABEL: func.func @split_of_transpose
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<5x4xf32>)
// CHECK-NOT:     layout.transpose
// CHECK-NOT:     layout.split
// CHECK-NOT:     layout.select
// x.T: (4, 5):(1, 4); split dim 1 [2, 3]:
//   a: (4, 2):(1, 4)+0
//   b: (4, 3):(1, 4)+8            offset: 2 * 4 == 8
// select b dim 0 index 3: (3):(4)+11   offset: 8 + 3 * 1 == 11
// CHECK-DAG:     %[[A:.*]] = layout.as_strided %[[X]] [4, 2] strides [1, 4] offset 0 : !layout.tensor<5x4xf32> -> !layout.tensor<4x2xf32, strided<[1, 4]>>
// CHECK-DAG:     %[[B:.*]] = layout.as_strided %[[X]] [3] strides [4] offset 11 : !layout.tensor<5x4xf32> -> !layout.tensor<3xf32, strided<[4], offset: 11>>
// CHECK:         return %[[A]], %[[B]]
func.func @split_of_transpose(%x: !layout.tensor<5x4xf32>) -> (!layout.tensor<4x2xf32, strided<[1, 4]>>, !layout.tensor<3xf32, strided<[4], offset: 11>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<5x4xf32>
  %a, %b = layout.split %t dim 1 [2, 3] : !layout.tensor<4x5xf32, strided<[1, 4]>>
  %r = layout.select %b dim 0 index 3 : !layout.tensor<4x3xf32, strided<[1, 4], offset: 8>>
  return %a, %r : !layout.tensor<4x2xf32, strided<[1, 4]>>, !layout.tensor<3xf32, strided<[4], offset: 11>>
}

// A chain that starts at a storage argument folds onto the storage.
// CHECK-LABEL: func.func @storage_root
// CHECK-SAME:    (%[[S:.*]]: !layout.storage<24xf32>)
// CHECK-NOT:     layout.permute
// CHECK-NOT:     layout.slice
// as_strided [2, 3, 4] [12, 4, 1] 0; permute [2, 0, 1]: (4, 2, 3):(1, 12, 4)
// slice dim 0 [1:]: (3, 2, 3):(1, 12, 4)+1
// CHECK:         %[[V:.*]] = layout.as_strided %[[S]] [3, 2, 3] strides [1, 12, 4] offset 1 : !layout.storage<24xf32> -> !layout.tensor<3x2x3xf32, strided<[1, 12, 4], offset: 1>>
// CHECK-NEXT:    return %[[V]]
func.func @storage_root(%s: !layout.storage<24xf32>) -> !layout.tensor<3x2x3xf32, strided<[1, 12, 4], offset: 1>> {
  %a = layout.as_strided %s [2, 3, 4] strides [12, 4, 1] offset 0 : !layout.storage<24xf32>
  %p = layout.permute %a [2, 0, 1] : !layout.tensor<2x3x4xf32>
  %sl = layout.slice %p dim 0 [1 : : 1] : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  return %sl : !layout.tensor<3x2x3xf32, strided<[1, 12, 4], offset: 1>>
}

// as_strided of a view re-bases onto the root: its offset is absolute in the
// storage, so x.T.as_strided((2, 2), (4, 2), 1) == x.as_strided(...), which
// reads elements 1, 3, 5, 7.
// CHECK-LABEL: func.func @as_strided_of_view
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NOT:     layout.transpose
// CHECK:         %[[V:.*]] = layout.as_strided %[[X]] [2, 2] strides [4, 2] offset 1 : !layout.tensor<3x4xf32> -> !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
// CHECK-NEXT:    return %[[V]]
func.func @as_strided_of_view(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %a = layout.as_strided %t [2, 2] strides [4, 2] offset 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %a : !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}

// as_strided of as_strided of a storage: the inner one's offset (6) does not
// add to the outer one's (10), both are absolute.
// CHECK-LABEL: func.func @as_strided_of_as_strided
// CHECK-SAME:    (%[[S:.*]]: !layout.storage<24xf32>)
// CHECK-NOT:     layout.unsqueeze
// as_strided [2] [1] 10, unsqueeze dim 1: (2, 1):(1, 1)+10   new stride: 1 (last dim)
// CHECK:         %[[V:.*]] = layout.as_strided %[[S]] [2, 1] strides [1, 1] offset 10 : !layout.storage<24xf32> -> !layout.tensor<2x1xf32, strided<[1, 1], offset: 10>>
// CHECK-NEXT:    return %[[V]]
func.func @as_strided_of_as_strided(%s: !layout.storage<24xf32>) -> !layout.tensor<2x1xf32, strided<[1, 1], offset: 10>> {
  %a1 = layout.as_strided %s [3, 4] strides [4, 1] offset 6 : !layout.storage<24xf32>
  %a2 = layout.as_strided %a1 [2] strides [1] offset 10 : !layout.tensor<3x4xf32, strided<[4, 1], offset: 6>>
  %u = layout.unsqueeze %a2 dim 1 : !layout.tensor<2xf32, strided<[1], offset: 10>>
  return %u : !layout.tensor<2x1xf32, strided<[1, 1], offset: 10>>
}

// Views that are the identity on a tensor root fold to the root itself.
// CHECK-LABEL: func.func @identity_views
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<2x3xf32>)
// CHECK-NOT:     = layout.
// CHECK:         return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]] :
func.func @identity_views(%x: !layout.tensor<2x3xf32>) -> (!layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>) {
  %0 = layout.permute %x [0, 1] : !layout.tensor<2x3xf32>
  %1 = layout.transpose %x 1, -1 : !layout.tensor<2x3xf32>
  %2 = layout.view %x [2, 3] : !layout.tensor<2x3xf32>
  %3 = layout.slice %x dim 1 [: : 1] : !layout.tensor<2x3xf32>
  %4 = layout.narrow %x dim 0 start 0 length 2 : !layout.tensor<2x3xf32>
  %5 = layout.expand %x [-1, 3] : !layout.tensor<2x3xf32>
  %6 = layout.squeeze %x [] : !layout.tensor<2x3xf32>
  %7 = layout.movedim %x 1 to 1 : !layout.tensor<2x3xf32>
  %8 = layout.unflatten %x dim 1 [3] : !layout.tensor<2x3xf32>
  %9 = layout.split %x dim 0 [2] : !layout.tensor<2x3xf32>
  %10 = layout.as_strided %x [2, 3] strides [3, 1] offset 0 : !layout.tensor<2x3xf32>
  // unsqueeze then squeeze of the new dim
  %u = layout.unsqueeze %x dim 1 : !layout.tensor<2x3xf32>
  %11 = layout.squeeze %u [1] : !layout.tensor<2x1x3xf32>
  // flip twice: strides negate twice, the offset goes to (2 - 1) * 3 +
  // (3 - 1) * 1 == 5 and back to 0
  %f = layout.flip %x [0, 1] : !layout.tensor<2x3xf32>
  %12 = layout.flip %f [1, 0] : !layout.tensor<2x3xf32, strided<[-3, -1], offset: 5>>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>, !layout.tensor<2x3xf32>
}

// A chain that comes back to a strided argument's own layout folds to it.
// CHECK-LABEL: func.func @identity_on_strided_argument
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>)
// CHECK-NOT:     = layout.
// CHECK:         return %[[X]] :
func.func @identity_on_strided_argument(%x: !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>) -> !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>
  %u = layout.unsqueeze %t dim 0 : !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>
  %v = layout.view %u [12] : !layout.tensor<1x3x4xf32, strided<[12, 4, 1], offset: 2>>
  %w = layout.view %v [3, 4] : !layout.tensor<12xf32, strided<[1], offset: 2>>
  %b = layout.transpose %w 0, 1 : !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>
  return %b : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>
}

// Rank 0 and size 0.
// CHECK-LABEL: func.func @scalar_and_empty
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NOT:     layout.select
// CHECK-NOT:     layout.unsqueeze
// CHECK-NOT:     layout.slice
// CHECK-NOT:     layout.transpose
// x[2][-1]: offset 2 * 4 + 3 * 1 == 11, no dims.
// CHECK-DAG:     %[[S:.*]] = layout.as_strided %[[X]] [] strides [] offset 11 : !layout.tensor<3x4xf32> -> !layout.tensor<f32, strided<[], offset: 11>>
// unsqueeze of a scalar: (1):(1)+11
// CHECK-DAG:     %[[U:.*]] = layout.as_strided %[[X]] [1] strides [1] offset 11 : !layout.tensor<3x4xf32> -> !layout.tensor<1xf32, strided<[1], offset: 11>>
// x[2:2].T: (4, 0):(1, 4)+8, offset 2 * 4 == 8 even though no element is read
// CHECK-DAG:     %[[E:.*]] = layout.as_strided %[[X]] [4, 0] strides [1, 4] offset 8 : !layout.tensor<3x4xf32> -> !layout.tensor<4x0xf32, strided<[1, 4], offset: 8>>
// CHECK:         return %[[S]], %[[U]], %[[E]]
func.func @scalar_and_empty(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<f32, strided<[], offset: 11>>, !layout.tensor<1xf32, strided<[1], offset: 11>>, !layout.tensor<4x0xf32, strided<[1, 4], offset: 8>>) {
  %r = layout.select %x dim 0 index 2 : !layout.tensor<3x4xf32>
  %s = layout.select %r dim 0 index -1 : !layout.tensor<4xf32, strided<[1], offset: 8>>
  %u = layout.unsqueeze %s dim 0 : !layout.tensor<f32, strided<[], offset: 11>>
  %e = layout.slice %x dim 0 [2 : 2 : 1] : !layout.tensor<3x4xf32>
  %et = layout.transpose %e 0, 1 : !layout.tensor<0x4xf32, strided<[4, 1], offset: 8>>
  return %s, %u, %et : !layout.tensor<f32, strided<[], offset: 11>>, !layout.tensor<1xf32, strided<[1], offset: 11>>, !layout.tensor<4x0xf32, strided<[1, 4], offset: 8>>
}

// More arithmetic: a below-main diagonal, unfold with step > 1, expand of a
// size-1 dim plus a new leading dim, and a slice of the broadcast.
// CHECK-LABEL: func.func @diagonal_unfold_expand
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>, %[[Y:.*]]: !layout.tensor<10xf32>, %[[Z:.*]]: !layout.tensor<3x1xf32>)
// diagonal offset -1 dims 0, 1 of (3, 4):(4, 1): starts at x[1][0] (offset 4),
// size min(3 - 1, 4) == 2, stride 4 + 1 == 5
// CHECK-DAG:     %[[D:.*]] = layout.as_strided %[[X]] [2] strides [5] offset 4 : !layout.tensor<3x4xf32> -> !layout.tensor<2xf32, strided<[5], offset: 4>>
// unfold dim 0 size 3 step 2 of (10):(1): (10 - 3) / 2 + 1 == 4 windows, (4, 3):(2, 1)
// CHECK-DAG:     %[[W:.*]] = layout.as_strided %[[Y]] [4, 3] strides [2, 1] offset 0 : !layout.tensor<10xf32> -> !layout.tensor<4x3xf32, strided<[2, 1]>>
// expand [2, 3, 4] of (3, 1):(1, 1): (2, 3, 4):(0, 1, 0); slice dim 2 [1:3]: offset 1 * 0 == 0
// CHECK-DAG:     %[[E:.*]] = layout.as_strided %[[Z]] [2, 3, 2] strides [0, 1, 0] offset 0 : !layout.tensor<3x1xf32> -> !layout.tensor<2x3x2xf32, strided<[0, 1, 0]>>
// CHECK:         return %[[D]], %[[W]], %[[E]]
func.func @diagonal_unfold_expand(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<10xf32>, %z: !layout.tensor<3x1xf32>) -> (!layout.tensor<2xf32, strided<[5], offset: 4>>, !layout.tensor<4x3xf32, strided<[2, 1]>>, !layout.tensor<2x3x2xf32, strided<[0, 1, 0]>>) {
  %d = layout.diagonal %x offset -1 dims 0, 1 : !layout.tensor<3x4xf32>
  %w = layout.unfold %y dim 0 size 3 step 2 : !layout.tensor<10xf32>
  %e = layout.expand %z [2, 3, 4] : !layout.tensor<3x1xf32>
  %s = layout.slice %e dim 2 [1 : 3 : 1] : !layout.tensor<2x3x4xf32, strided<[0, 1, 0]>>
  return %d, %w, %s : !layout.tensor<2xf32, strided<[5], offset: 4>>, !layout.tensor<4x3xf32, strided<[2, 1]>>, !layout.tensor<2x3x2xf32, strided<[0, 1, 0]>>
}

// An intermediate view with several uses: every use folds to the root and
// the intermediate op is gone.
// CHECK-LABEL: func.func @shared_intermediate
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NOT:     layout.transpose
// CHECK-NOT:     layout.select
// CHECK-DAG:     %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0 : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[1, 4]>>
// x.T[2]: offset 2 * 1 == 2
// CHECK-DAG:     %[[S:.*]] = layout.as_strided %[[X]] [3] strides [4] offset 2 : !layout.tensor<3x4xf32> -> !layout.tensor<3xf32, strided<[4], offset: 2>>
// CHECK:         return %[[T]], %[[S]]
func.func @shared_intermediate(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<3xf32, strided<[4], offset: 2>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %s = layout.select %t dim 0 index 2 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %t, %s : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<3xf32, strided<[4], offset: 2>>
}

// Dynamic as_strided operands are kept; only the base is re-based.
// CHECK-LABEL: func.func @dynamic_as_strided
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>, %[[S:.*]]: !layout.storage<24xf32>, %[[N:.*]]: index, %[[ST:.*]]: index, %[[O:.*]]: index)
// CHECK-NOT:     layout.transpose
// CHECK:         %[[A:.*]] = layout.as_strided %[[X]] [%[[N]], 2] strides [%[[ST]], 1] offset %[[O]] : !layout.tensor<3x4xf32> -> !layout.tensor<?x2xf32, strided<[?, 1], offset: ?>>
// CHECK:         %[[B0:.*]] = layout.as_strided %[[S]] [%[[N]]] strides [1] offset 0 : !layout.storage<24xf32> -> !layout.tensor<?xf32>
// CHECK:         %[[B1:.*]] = layout.as_strided %[[S]] [2] strides [1] offset %[[O]] : !layout.storage<24xf32> -> !layout.tensor<2xf32, strided<[1], offset: ?>>
// CHECK:         return %[[A]], %[[B0]], %[[B1]]
func.func @dynamic_as_strided(%x: !layout.tensor<3x4xf32>, %s: !layout.storage<24xf32>, %n: index, %st: index, %o: index) -> (!layout.tensor<?x2xf32, strided<[?, 1], offset: ?>>, !layout.tensor<?xf32, strided<[1]>>, !layout.tensor<2xf32, strided<[1], offset: ?>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %a = layout.as_strided %t [%n, 2] strides [%st, 1] offset %o : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %b0 = layout.as_strided %s [%n] strides [1] offset 0 : !layout.storage<24xf32>
  %b1 = layout.as_strided %b0 [2] strides [1] offset %o : !layout.tensor<?xf32, strided<[1]>>
  return %a, %b0, %b1 : !layout.tensor<?x2xf32, strided<[?, 1], offset: ?>>, !layout.tensor<?xf32, strided<[1]>>, !layout.tensor<2xf32, strided<[1], offset: ?>>
}

// Ops that may copy are not views to this pass: they stay, their operands
// fold, and views of their results fold onto them (an allocating root).
// CHECK-LABEL: func.func @may_copy_ops_stay
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>, %[[Y:.*]]: !layout.tensor<4x3xf16>)
// CHECK-NOT:     layout.transpose
// CHECK:         %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0
// CHECK:         %[[C:.*]] = layout.contiguous %[[T]] : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32>
// CHECK-NOT:     layout.select
// CHECK-NOT:     layout.unsqueeze
// c[1].unsqueeze(0): c is (4, 3):(3, 1); select offset 1 * 3 == 3; new stride 3 * 1 == 3
// CHECK:         %[[CV:.*]] = layout.as_strided %[[C]] [1, 3] strides [3, 1] offset 3 : !layout.tensor<4x3xf32> -> !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>
// CHECK:         %[[R:.*]] = layout.reshape %[[T]] [12] :
// CHECK:         %[[F:.*]] = layout.flatten %[[T]] dims 0 to 1 :
// CHECK:         %[[CL:.*]] = layout.clone %[[T]] :
// CHECK:         %[[H:.*]] = layout.to %[[T]] f16 :
// CHECK:         %[[SUM:.*]] = layout.reduce sum %[[T]] dims [0] :
// CHECK:         layout.copy %[[T]], %[[Y]] :
// CHECK:         return %[[C]], %[[CV]], %[[R]], %[[F]], %[[CL]], %[[H]], %[[SUM]]
func.func @may_copy_ops_stay(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<4x3xf16>) -> (!layout.tensor<4x3xf32>, !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>, !layout.tensor<12xf32>, !layout.tensor<12xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf16, strided<[1, 4]>>, !layout.tensor<3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %s = layout.select %c dim 0 index 1 : !layout.tensor<4x3xf32>
  %cv = layout.unsqueeze %s dim 0 : !layout.tensor<3xf32, strided<[1], offset: 3>>
  %r = layout.reshape %t [12] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %f = layout.flatten %t dims 0 to 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %cl = layout.clone %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %h = layout.to %t f16 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %sum = layout.reduce sum %t dims [0] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  layout.copy %t, %y : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf16>
  return %c, %cv, %r, %f, %cl, %h, %sum : !layout.tensor<4x3xf32>, !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>, !layout.tensor<12xf32>, !layout.tensor<12xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf16, strided<[1, 4]>>, !layout.tensor<3xf32>
}
