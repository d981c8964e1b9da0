// RUN: layout-opt %s --layout-fold-views --layout-plan-copies | FileCheck %s --enable-var-scope

// layout-plan-copies decides, for every op that may copy, whether data moves.
// No-op copies disappear into the view chain; the others become
// layout.materialize carrying the op that asked (origin) and why (reason).
// A materialized buffer that is only read is looked through, which fuses copy
// chains and lets reductions and copies read strided views directly.
// Expected layouts were checked with PyTorch 1.13 (stride(), is_contiguous(),
// and data_ptr() equality for "no copy").

//===----------------------------------------------------------------------===//
// No-op copies disappear
//===----------------------------------------------------------------------===//

// x.contiguous() is x when x is already row-major.
// CHECK-LABEL: func.func @contiguous_of_contiguous
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NOT:     layout.materialize
// CHECK-NOT:     layout.contiguous
// CHECK:         return %[[X]] :
func.func @contiguous_of_contiguous(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32> {
  %c = layout.contiguous %x : !layout.tensor<3x4xf32>
  return %c : !layout.tensor<3x4xf32>
}

// Permuting size-1 dims keeps a tensor contiguous (is_contiguous ignores
// size-1 dims): y (1, 3, 1, 4):(12, 4, 4, 1).permute(2, 1, 0, 3) is
// (1, 3, 1, 4):(4, 4, 12, 1), and its contiguous() is itself.
// CHECK-LABEL: func.func @contiguous_of_size1_permute
// CHECK-SAME:    (%[[Y:.*]]: !layout.tensor<1x3x1x4xf32>)
// CHECK-NOT:     layout.materialize
// CHECK-NOT:     layout.contiguous
// CHECK:         %[[P:.*]] = layout.as_strided %[[Y]] [1, 3, 1, 4] strides [4, 4, 12, 1] offset 0
// CHECK-NOT:     layout.materialize
// CHECK:         return %[[P]] :
func.func @contiguous_of_size1_permute(%y: !layout.tensor<1x3x1x4xf32>) -> !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>> {
  %p = layout.permute %y [2, 1, 0, 3] : !layout.tensor<1x3x1x4xf32>
  %c = layout.contiguous %p : !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>>
  return %c : !layout.tensor<1x3x1x4xf32, strided<[4, 4, 12, 1]>>
}

// A channels_last tensor is already channels_last contiguous:
// (2, 3, 4, 5) in NHWC order has strides (H*W*C, 1, W*C, C) == (60, 1, 15, 3).
// CHECK-LABEL: func.func @channels_last_of_channels_last
// CHECK-SAME:    (%[[Z:.*]]: !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>)
// CHECK-NOT:     layout.materialize
// CHECK-NOT:     layout.contiguous
// CHECK:         return %[[Z]] :
func.func @channels_last_of_channels_last(%z: !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>) -> !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>> {
  %c = layout.contiguous %z channels_last : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
  return %c : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
}

// reshape and flatten that PyTorch's view can do, and `to` the same dtype,
// are views of the operand's storage.
// CHECK-LABEL: func.func @views_that_may_copy
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>, %[[W:.*]]: !layout.tensor<2x3x4xf32>)
// CHECK-NOT:     layout.materialize
// CHECK-NOT:     layout.reshape
// CHECK-NOT:     layout.flatten
// CHECK-NOT:     layout.to
// x.reshape(2, 6): (2, 6):(6, 1)
// CHECK-DAG:     %[[R:.*]] = layout.as_strided %[[X]] [2, 6] strides [6, 1] offset 0
// x.T.reshape(2, 2, 3) splits the stride-1 dim of (4, 3):(1, 4): (2, 2, 3):(2, 1, 4)
// CHECK-DAG:     %[[RT:.*]] = layout.as_strided %[[X]] [2, 2, 3] strides [2, 1, 4] offset 0
// x.flatten(): (12):(1)
// CHECK-DAG:     %[[F:.*]] = layout.as_strided %[[X]] [12] strides [1] offset 0
// w[:, 1:3].flatten(1, 2): (2, 2, 4):(12, 4, 1)+4, dims 1, 2 merge as 4 == 4 * 1: (2, 8):(12, 1)+4
// CHECK-DAG:     %[[FS:.*]] = layout.as_strided %[[W]] [2, 8] strides [12, 1] offset 4
// CHECK:         return %[[R]], %[[RT]], %[[F]], %[[FS]], %[[X]] :
func.func @views_that_may_copy(%x: !layout.tensor<3x4xf32>, %w: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<2x6xf32>, !layout.tensor<2x2x3xf32, strided<[2, 1, 4]>>, !layout.tensor<12xf32>, !layout.tensor<2x8xf32, strided<[12, 1], offset: 4>>, !layout.tensor<3x4xf32>) {
  %r = layout.reshape %x [2, 6] : !layout.tensor<3x4xf32>
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %rt = layout.reshape %t [2, 2, 3] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %f = layout.flatten %x dims 0 to 1 : !layout.tensor<3x4xf32>
  %s = layout.slice %w dim 1 [1 : 3 : 1] : !layout.tensor<2x3x4xf32>
  %fs = layout.flatten %s dims 1 to 2 : !layout.tensor<2x2x4xf32, strided<[12, 4, 1], offset: 4>>
  %h = layout.to %x f32 : !layout.tensor<3x4xf32>
  return %r, %rt, %f, %fs, %h : !layout.tensor<2x6xf32>, !layout.tensor<2x2x3xf32, strided<[2, 1, 4]>>, !layout.tensor<12xf32>, !layout.tensor<2x8xf32, strided<[12, 1], offset: 4>>, !layout.tensor<3x4xf32>
}

//===----------------------------------------------------------------------===//
// Copies that must run become layout.materialize with origin and reason
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @copies_with_reasons
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>, %[[Z:.*]]: !layout.tensor<2x3x4x5xf32>, %[[V:.*]]: !layout.tensor<2x3x4x5x6xf32>)
// CHECK-NOT:     layout.contiguous
// CHECK-NOT:     layout.clone
// CHECK-NOT:     layout.to
// CHECK:         %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0
// CHECK:         %[[C:.*]] = layout.materialize %[[T]] {origin = "layout.contiguous", reason = "operand strides [1, 4] are not row-major"} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32>
// NCHW (2, 3, 4, 5):(60, 20, 5, 1) -> channels_last (60, 1, 15, 3)
// CHECK:         %[[CL:.*]] = layout.materialize %[[Z]] {origin = "layout.contiguous", reason = "operand strides [60, 20, 5, 1] are not channels_last"} : !layout.tensor<2x3x4x5xf32> -> !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
// NCDHW (2, 3, 4, 5, 6) -> channels_last_3d (C*D*H*W, 1, H*W*C, W*C, C) == (360, 1, 90, 18, 3)
// CHECK:         %[[CL3:.*]] = layout.materialize %[[V]] {origin = "layout.contiguous", reason = "operand strides [360, 120, 30, 6, 1] are not channels_last_3d"} : !layout.tensor<2x3x4x5x6xf32> -> !layout.tensor<2x3x4x5x6xf32, strided<[360, 1, 90, 18, 3]>>
// x.T.to(f16) keeps x.T's strides (memory_format=preserve of a dense tensor)
// CHECK:         %[[H:.*]] = layout.materialize %[[T]] {origin = "layout.to", reason = "dtype conversion f32 -> f16"} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf16, strided<[1, 4]>>
// clone always allocates, even of a contiguous tensor
// CHECK:         %[[CC:.*]] = layout.materialize %[[X]] {origin = "layout.clone", reason = "clone always allocates new storage"} : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32>
// clone (preserve) of x.T keeps its strides
// CHECK:         %[[CT:.*]] = layout.materialize %[[T]] {origin = "layout.clone", reason = "clone always allocates new storage"} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32, strided<[1, 4]>>
// CHECK:         return %[[C]], %[[CL]], %[[CL3]], %[[H]], %[[CC]], %[[CT]] :
func.func @copies_with_reasons(%x: !layout.tensor<3x4xf32>, %z: !layout.tensor<2x3x4x5xf32>, %v: !layout.tensor<2x3x4x5x6xf32>) -> (!layout.tensor<4x3xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x3x4x5x6xf32, strided<[360, 1, 90, 18, 3]>>, !layout.tensor<4x3xf16, strided<[1, 4]>>, !layout.tensor<3x4xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %cl = layout.contiguous %z channels_last : !layout.tensor<2x3x4x5xf32>
  %cl3 = layout.contiguous %v channels_last_3d : !layout.tensor<2x3x4x5x6xf32>
  %h = layout.to %t f16 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %cc = layout.clone %x : !layout.tensor<3x4xf32>
  %ct = layout.clone %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %c, %cl, %cl3, %h, %cc, %ct : !layout.tensor<4x3xf32>, !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, !layout.tensor<2x3x4x5x6xf32, strided<[360, 1, 90, 18, 3]>>, !layout.tensor<4x3xf16, strided<[1, 4]>>, !layout.tensor<3x4xf32>, !layout.tensor<4x3xf32, strided<[1, 4]>>
}

//===----------------------------------------------------------------------===//
// Looking through dead intermediate buffers
//===----------------------------------------------------------------------===//

// contiguous(permute(contiguous(permute x))) is ONE copy of x.
// x (2, 3, 4):(12, 4, 1)
// p1 = x.permute(1, 2, 0):  (3, 4, 2):(4, 1, 12)
// c1 = p1.contiguous():     (3, 4, 2):(8, 2, 1)   buffer
// p2 = c1.permute(1, 2, 0): (4, 2, 3):(2, 1, 8)
// c2[a, b, c] = c1[c, a, b] = x[b, c, a], so c2 reads x through
// (4, 2, 3):(1, 12, 4): torch.equal(c2, x.as_strided((4, 2, 3), (1, 12, 4))).
// CHECK-LABEL: func.func @contiguous_permute_contiguous_permute
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<2x3x4xf32>)
// CHECK:         %[[V:.*]] = layout.as_strided %[[X]] [4, 2, 3] strides [1, 12, 4] offset 0
// CHECK-NEXT:    %[[M:.*]] = layout.materialize %[[V]] {origin = "layout.contiguous", reason = "operand strides [2, 1, 8] are not row-major; fused with the copy of layout.contiguous at {{.*}}layout-plan-copies.mlir:[[@LINE+5]]:9"} : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> -> !layout.tensor<4x2x3xf32>
// CHECK-NOT:     layout.materialize
// CHECK:         return %[[M]] :
func.func @contiguous_permute_contiguous_permute(%x: !layout.tensor<2x3x4xf32>) -> !layout.tensor<4x2x3xf32> {
  %p1 = layout.permute %x [1, 2, 0] : !layout.tensor<2x3x4xf32>
  %c1 = layout.contiguous %p1 : !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>
  %p2 = layout.permute %c1 [1, 2, 0] : !layout.tensor<3x4x2xf32>
  %c2 = layout.contiguous %p2 : !layout.tensor<4x2x3xf32, strided<[2, 1, 8]>>
  return %c2 : !layout.tensor<4x2x3xf32>
}

// When the two permutes cancel, the one copy reads x itself.
// CHECK-LABEL: func.func @permutes_cancel
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[M:.*]] = layout.materialize %[[X]] {origin = "layout.contiguous", reason = "operand strides [3, 1, 6] are not row-major; fused with the copy of layout.contiguous at {{.*}}layout-plan-copies.mlir:[[@LINE+4]]:9"} : !layout.tensor<2x3x4xf32> -> !layout.tensor<2x3x4xf32>
// CHECK-NEXT:    return %[[M]] :
func.func @permutes_cancel(%x: !layout.tensor<2x3x4xf32>) -> !layout.tensor<2x3x4xf32> {
  %p1 = layout.permute %x [2, 0, 1] : !layout.tensor<2x3x4xf32>
  %c1 = layout.contiguous %p1 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %p2 = layout.permute %c1 [1, 2, 0] : !layout.tensor<4x2x3xf32>
  %c2 = layout.contiguous %p2 : !layout.tensor<2x3x4xf32, strided<[3, 1, 6]>>
  return %c2 : !layout.tensor<2x3x4xf32>
}

// A reduction of contiguous(x.T) reads x.T directly: no copy at all.
// CHECK-LABEL: func.func @reduce_reads_strided_view
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NOT:     layout.materialize
// CHECK:         %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0
// CHECK-NEXT:    %[[R:.*]] = layout.reduce sum %[[T]] dims [1] : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4xf32>
// CHECK-NEXT:    return %[[R]] :
func.func @reduce_reads_strided_view(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %r = layout.reduce sum %c dims [1] : !layout.tensor<4x3xf32>
  return %r : !layout.tensor<4xf32>
}

// ...also through a view of the buffer: contiguous(x.T)[1] is (3):(1)+3 of
// the buffer (4, 3):(3, 1), i.e. x.T[1] == x[:, 1] == (3):(4)+1 of x.
// CHECK-LABEL: func.func @reduce_reads_view_of_buffer
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NOT:     layout.materialize
// CHECK:         %[[S:.*]] = layout.as_strided %[[X]] [3] strides [4] offset 1
// CHECK-NEXT:    %[[R:.*]] = layout.reduce amax %[[S]] dims [] : !layout.tensor<3xf32, strided<[4], offset: 1>> -> !layout.tensor<f32>
// CHECK-NEXT:    return %[[R]] :
func.func @reduce_reads_view_of_buffer(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<f32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %s = layout.select %c dim 0 index 1 : !layout.tensor<4x3xf32>
  %r = layout.reduce amax %s dims [] : !layout.tensor<3xf32, strided<[1], offset: 3>>
  return %r : !layout.tensor<f32>
}

// `to` after contiguous is one copy that transposes and converts.
// CHECK-LABEL: func.func @to_after_contiguous
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0
// CHECK-NEXT:    %[[M:.*]] = layout.materialize %[[T]] {origin = "layout.to", reason = "dtype conversion f32 -> f16; fused with the copy of layout.contiguous at {{.*}}layout-plan-copies.mlir:[[@LINE+4]]:8"} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf16>
// CHECK-NEXT:    return %[[M]] :
func.func @to_after_contiguous(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %h = layout.to %c f16 : !layout.tensor<4x3xf32>
  return %h : !layout.tensor<4x3xf16>
}

// clone always materializes; of a dead buffer it is still one copy.
// CHECK-LABEL: func.func @clone_after_contiguous
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0
// CHECK-NEXT:    %[[M:.*]] = layout.materialize %[[T]] {origin = "layout.clone", reason = "clone always allocates new storage; fused with the copy of layout.contiguous at {{.*}}layout-plan-copies.mlir:[[@LINE+4]]:8"} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32>
// CHECK-NEXT:    return %[[M]] :
func.func @clone_after_contiguous(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %d = layout.clone %c : !layout.tensor<4x3xf32>
  return %d : !layout.tensor<4x3xf32>
}

// Several readers of one dead buffer all read the source.
// CHECK-LABEL: func.func @two_readers
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// (The operand types say both read x.T, (4, 3):(1, 4), not the buffer.)
// CHECK-NOT:     origin = "layout.contiguous"
// CHECK:         %[[R:.*]] = layout.reduce sum %{{.*}} dims [0] : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<3xf32>
// CHECK-NOT:     origin = "layout.contiguous"
// CHECK:         %[[M:.*]] = layout.materialize %{{.*}} {origin = "layout.clone", reason = "clone always allocates new storage; fused with the copy of layout.contiguous at {{.*}}layout-plan-copies.mlir:[[@LINE+5]]:8"} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32>
// CHECK-NOT:     origin = "layout.contiguous"
// CHECK:         return %[[R]], %[[M]] :
func.func @two_readers(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<3xf32>, !layout.tensor<4x3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %r = layout.reduce sum %c dims [0] : !layout.tensor<4x3xf32>
  %d = layout.clone %c : !layout.tensor<4x3xf32>
  return %r, %d : !layout.tensor<3xf32>, !layout.tensor<4x3xf32>
}

// layout.copy reads through a dead buffer too: y.copy_(x.T.contiguous())
// reads x.T.
// CHECK-LABEL: func.func @copy_reads_through_buffer
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>, %[[Y:.*]]: !layout.tensor<4x3xf32>)
// CHECK-NOT:     layout.materialize
// CHECK:         %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0
// CHECK-NEXT:    layout.copy %[[T]], %[[Y]] : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>
// CHECK-NEXT:    return
func.func @copy_reads_through_buffer(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<4x3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  layout.copy %c, %y : !layout.tensor<4x3xf32>, !layout.tensor<4x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// layout.copy of a view onto itself disappears
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @copy_onto_itself
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<4x4xf32>)
// CHECK-NOT:     layout.copy
// CHECK:         return
func.func @copy_onto_itself(%x: !layout.tensor<4x4xf32>) {
  // the same SSA value
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  layout.copy %t, %t : !layout.tensor<4x4xf32, strided<[1, 4]>>, !layout.tensor<4x4xf32, strided<[1, 4]>>
  // two spellings of row 1: x[1] and x.narrow(0, 1, 1).squeeze(0), both (4):(1)+4
  %a = layout.select %x dim 0 index 1 : !layout.tensor<4x4xf32>
  %b = layout.narrow %x dim 0 start 1 length 1 : !layout.tensor<4x4xf32>
  %b1 = layout.squeeze %b [0] : !layout.tensor<1x4xf32, strided<[4, 1], offset: 4>>
  layout.copy %a, %b1 : !layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<4xf32, strided<[1], offset: 4>>
  // the argument itself
  layout.copy %x, %x : !layout.tensor<4x4xf32>, !layout.tensor<4x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Negative cases: the copies stay
//===----------------------------------------------------------------------===//

// No single strided view of x reads contiguous(x.T).view(12): buffer element
// k is x[k % 3][k / 3] at storage offset (k % 3) * 4 + k / 3, which is
// 0, 4, 8, 1, 5, ... (not arithmetic). Two copies.
// CHECK-LABEL: func.func @no_single_strided_view
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0
// CHECK-NEXT:    %[[C:.*]] = layout.materialize %[[T]] {origin = "layout.contiguous", reason = "operand strides [1, 4] are not row-major"}
// CHECK-NEXT:    %[[V:.*]] = layout.as_strided %[[C]] [12] strides [1] offset 0 : !layout.tensor<4x3xf32> -> !layout.tensor<12xf32>
// CHECK-NEXT:    %[[M:.*]] = layout.materialize %[[V]] {origin = "layout.clone", reason = "clone always allocates new storage"} : !layout.tensor<12xf32> -> !layout.tensor<12xf32>
// CHECK-NEXT:    return %[[M]] :
func.func @no_single_strided_view(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<12xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %v = layout.view %c [12] : !layout.tensor<4x3xf32>
  %m = layout.clone %v : !layout.tensor<12xf32>
  return %m : !layout.tensor<12xf32>
}

// Every 5th element of that buffer: storage offsets 0, 9, 7. Two copies.
// CHECK-LABEL: func.func @no_single_strided_view_step
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[C:.*]] = layout.materialize %{{.*}} {origin = "layout.contiguous"
// CHECK-NEXT:    %[[V:.*]] = layout.as_strided %[[C]] [3] strides [5] offset 0
// CHECK-NEXT:    %[[M:.*]] = layout.materialize %[[V]] {origin = "layout.clone", reason = "clone always allocates new storage"} : !layout.tensor<3xf32, strided<[5]>> -> !layout.tensor<3xf32>
// CHECK-NEXT:    return %[[M]] :
func.func @no_single_strided_view_step(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %v = layout.view %c [12] : !layout.tensor<4x3xf32>
  %s = layout.slice %v dim 0 [0 : 12 : 5] : !layout.tensor<12xf32>
  %m = layout.clone %s : !layout.tensor<3xf32, strided<[5]>>
  return %m : !layout.tensor<3xf32>
}

// A reduction of an f16 copy must sum the rounded f16 values, not x's f32
// ones: the conversion stays.
// CHECK-LABEL: func.func @reduce_of_converted_copy
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[H:.*]] = layout.materialize %{{.*}} {origin = "layout.to", reason = "dtype conversion f32 -> f16"} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf16, strided<[1, 4]>>
// CHECK-NEXT:    %[[R:.*]] = layout.reduce sum %[[H]] dims [1] : !layout.tensor<4x3xf16, strided<[1, 4]>> -> !layout.tensor<4xf16>
// CHECK-NEXT:    return %[[R]] :
func.func @reduce_of_converted_copy(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %h = layout.to %t f16 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %r = layout.reduce sum %h dims [1] : !layout.tensor<4x3xf16, strided<[1, 4]>>
  return %r : !layout.tensor<4xf16>
}

// A buffer that is also returned is not looked through: the clone copies
// the buffer (both copies stay).
// CHECK-LABEL: func.func @returned_buffer
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[C:.*]] = layout.materialize %{{.*}} {origin = "layout.contiguous", reason = "operand strides [1, 4] are not row-major"}
// CHECK-NEXT:    %[[D:.*]] = layout.materialize %[[C]] {origin = "layout.clone", reason = "clone always allocates new storage"} : !layout.tensor<4x3xf32> -> !layout.tensor<4x3xf32>
// CHECK-NEXT:    return %[[C]], %[[D]] :
func.func @returned_buffer(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<4x3xf32>, !layout.tensor<4x3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %d = layout.clone %c : !layout.tensor<4x3xf32>
  return %c, %d : !layout.tensor<4x3xf32>, !layout.tensor<4x3xf32>
}

// A buffer that is written is not looked through: the clone must see y.
// CHECK-LABEL: func.func @written_buffer
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>, %[[Y:.*]]: !layout.tensor<4x3xf32>)
// CHECK:         %[[C:.*]] = layout.materialize %{{.*}} {origin = "layout.contiguous"
// CHECK-NEXT:    layout.copy %[[Y]], %[[C]] :
// CHECK-NEXT:    %[[D:.*]] = layout.materialize %[[C]] {origin = "layout.clone", reason = "clone always allocates new storage"}
// CHECK-NEXT:    return %[[D]] :
func.func @written_buffer(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<4x3xf32>) -> !layout.tensor<4x3xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  layout.copy %y, %c : !layout.tensor<4x3xf32>, !layout.tensor<4x3xf32>
  %d = layout.clone %c : !layout.tensor<4x3xf32>
  return %d : !layout.tensor<4x3xf32>
}

// The buffer's source is overwritten before the reader runs: the reader
// must read the snapshot, so the buffer stays.
// CHECK-LABEL: func.func @source_written_before_reader
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>, %[[Y:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[C:.*]] = layout.materialize %{{.*}} {origin = "layout.contiguous"
// CHECK-NEXT:    layout.copy %[[Y]], %[[X]] :
// CHECK-NEXT:    %[[R:.*]] = layout.reduce sum %[[C]] dims [1]
// CHECK-NEXT:    return %[[R]] :
func.func @source_written_before_reader(%x: !layout.tensor<3x4xf32>, %y: !layout.tensor<3x4xf32>) -> !layout.tensor<4xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  layout.copy %y, %x : !layout.tensor<3x4xf32>, !layout.tensor<3x4xf32>
  %r = layout.reduce sum %c dims [1] : !layout.tensor<4x3xf32>
  return %r : !layout.tensor<4xf32>
}

// x.copy_(x.T.contiguous()) on a square x: looking through the buffer would
// read x.T while writing x (a partial overlap), so the buffer stays.
// CHECK-LABEL: func.func @copy_into_buffer_source
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<4x4xf32>)
// CHECK:         %[[C:.*]] = layout.materialize %{{.*}} {origin = "layout.contiguous", reason = "operand strides [1, 4] are not row-major"}
// CHECK-NEXT:    layout.copy %[[C]], %[[X]] : !layout.tensor<4x4xf32>, !layout.tensor<4x4xf32>
// CHECK-NEXT:    return
func.func @copy_into_buffer_source(%x: !layout.tensor<4x4xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x4xf32, strided<[1, 4]>>
  layout.copy %c, %x : !layout.tensor<4x4xf32>, !layout.tensor<4x4xf32>
  return
}
