// RUN: layout-opt %s | layout-opt | FileCheck %s --enable-var-scope
// RUN: layout-opt %s --mlir-print-op-generic | layout-opt | FileCheck %s --enable-var-scope

// Round trip of every layout op. Each CHECK asserts the inferred result type:
// sizes, strides and storage offset, all counted in elements. Every expected
// layout of a PyTorch op was checked against PyTorch 1.13 (the `torch:` line
// names the expression); `flip` (ext) was checked against NumPy's `np.flip`.
// The printer omits a row-major, offset-0 layout, so a result printed without
// `strided<...>` asserts strides that are PyTorch's contiguous strides.

//===----------------------------------------------------------------------===//
// as_strided
//===----------------------------------------------------------------------===//

// Elements 1 + {0, 4} + {0, 2}: the furthest is 7 < 12.
// torch: torch.empty(12).as_strided((2, 2), (4, 2), 1)
// CHECK-LABEL: func @as_strided_storage(
//  CHECK-SAME:     %[[S:.*]]: !layout.storage<12xf32>)
//       CHECK:   %[[V:.*]] = layout.as_strided %[[S]] [2, 2] strides [4, 2] offset 1 : !layout.storage<12xf32> -> !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
//       CHECK:   return %[[V]]
func.func @as_strided_storage(%s: !layout.storage<12xf32>) -> !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>> {
  %v = layout.as_strided %s [2, 2] strides [4, 2] offset 1 : !layout.storage<12xf32>
  return %v : !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}

// A tensor base: its storage is the 12 elements its view reaches. The result
// reads 2 + {0, 1, 2} + {0, 3}: at most 7.
// torch: torch.empty(3, 4).as_strided((3, 2), (1, 3), 2)
// CHECK-LABEL: func @as_strided_tensor(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<3x4xf32>)
//       CHECK:   %[[V:.*]] = layout.as_strided %[[X]] [3, 2] strides [1, 3] offset 2 : !layout.tensor<3x4xf32> -> !layout.tensor<3x2xf32, strided<[1, 3], offset: 2>>
//       CHECK:   return %[[V]]
func.func @as_strided_tensor(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x2xf32, strided<[1, 3], offset: 2>> {
  %v = layout.as_strided %x [3, 2] strides [1, 3] offset 2 : !layout.tensor<3x4xf32>
  return %v : !layout.tensor<3x2xf32, strided<[1, 3], offset: 2>>
}

// The offset is absolute in the storage, not relative to the base view's
// offset: the base (4):(1)+4 reaches elements 4..7, a storage of 8; the
// result reads 4 + {0, 2} + {0, 1} = 4..7.
// torch: torch.empty(8)[4:].as_strided((2, 2), (2, 1), 4)
// CHECK-LABEL: func @as_strided_absolute_offset(
//       CHECK:   layout.as_strided %{{.*}} [2, 2] strides [2, 1] offset 4 : !layout.tensor<4xf32, strided<[1], offset: 4>> -> !layout.tensor<2x2xf32, strided<[2, 1], offset: 4>>
func.func @as_strided_absolute_offset(%x: !layout.tensor<4xf32, strided<[1], offset: 4>>) -> !layout.tensor<2x2xf32, strided<[2, 1], offset: 4>> {
  %v = layout.as_strided %x [2, 2] strides [2, 1] offset 4 : !layout.tensor<4xf32, strided<[1], offset: 4>>
  return %v : !layout.tensor<2x2xf32, strided<[2, 1], offset: 4>>
}

// as_strided of a view is bounded by the view's storage, not by the view:
// the first view reads 2 elements, the second all 12 of the storage.
// torch: s = torch.empty(12); s.as_strided((2,), (1,), 0).as_strided((12,), (1,), 0)
// CHECK-LABEL: func @as_strided_of_view(
//  CHECK-SAME:     %[[S:.*]]: !layout.storage<12xbf16>)
//       CHECK:   %[[V:.*]] = layout.as_strided %[[S]] [2] strides [1] offset 0 : !layout.storage<12xbf16> -> !layout.tensor<2xbf16>
//       CHECK:   %[[W:.*]] = layout.as_strided %[[V]] [12] strides [1] offset 0 : !layout.tensor<2xbf16> -> !layout.tensor<12xbf16>
//       CHECK:   return %[[W]]
func.func @as_strided_of_view(%s: !layout.storage<12xbf16>) -> !layout.tensor<12xbf16> {
  %v = layout.as_strided %s [2] strides [1] offset 0 : !layout.storage<12xbf16>
  %w = layout.as_strided %v [12] strides [1] offset 0 : !layout.tensor<2xbf16>
  return %w : !layout.tensor<12xbf16>
}

// Rank 0: one element at offset 11, the last of the storage.
// torch: torch.empty(12).as_strided((), (), 11)
// CHECK-LABEL: func @as_strided_rank0(
//       CHECK:   layout.as_strided %{{.*}} [] strides [] offset 11 : !layout.storage<12xf32> -> !layout.tensor<f32, strided<[], offset: 11>>
func.func @as_strided_rank0(%s: !layout.storage<12xf32>) -> !layout.tensor<f32, strided<[], offset: 11>> {
  %v = layout.as_strided %s [] strides [] offset 11 : !layout.storage<12xf32>
  return %v : !layout.tensor<f32, strided<[], offset: 11>>
}

// A view without elements reads nothing, so any offset is in bounds.
// torch: torch.empty(12).as_strided((0, 3), (3, 1), 100)
// CHECK-LABEL: func @as_strided_empty(
//       CHECK:   layout.as_strided %{{.*}} [0, 3] strides [3, 1] offset 100 : !layout.storage<12xf32> -> !layout.tensor<0x3xf32, strided<[3, 1], offset: 100>>
func.func @as_strided_empty(%s: !layout.storage<12xf32>) -> !layout.tensor<0x3xf32, strided<[3, 1], offset: 100>> {
  %v = layout.as_strided %s [0, 3] strides [3, 1] offset 100 : !layout.storage<12xf32>
  return %v : !layout.tensor<0x3xf32, strided<[3, 1], offset: 100>>
}

// Stride 0 repeats a row: 4 elements of storage are enough for a 3x4 view.
// torch: torch.empty(4).as_strided((3, 4), (0, 1), 0)
// CHECK-LABEL: func @as_strided_broadcast(
//       CHECK:   layout.as_strided %{{.*}} [3, 4] strides [0, 1] offset 0 : !layout.storage<4xi32> -> !layout.tensor<3x4xi32, strided<[0, 1]>>
func.func @as_strided_broadcast(%s: !layout.storage<4xi32>) -> !layout.tensor<3x4xi32, strided<[0, 1]>> {
  %v = layout.as_strided %s [3, 4] strides [0, 1] offset 0 : !layout.storage<4xi32>
  return %v : !layout.tensor<3x4xi32, strided<[0, 1]>>
}

// (ext) A negative stride walks backwards from the offset: elements 2, 1, 0.
// PyTorch rejects negative strides in as_strided; this is how a folded flip
// reads (np.flip(np.arange(3)) has strides (-1) and offset 2).
// CHECK-LABEL: func @as_strided_negative_stride(
//       CHECK:   layout.as_strided %{{.*}} [3] strides [-1] offset 2 : !layout.storage<3xf64> -> !layout.tensor<3xf64, strided<[-1], offset: 2>>
func.func @as_strided_negative_stride(%s: !layout.storage<3xf64>) -> !layout.tensor<3xf64, strided<[-1], offset: 2>> {
  %v = layout.as_strided %s [3] strides [-1] offset 2 : !layout.storage<3xf64>
  return %v : !layout.tensor<3xf64, strided<[-1], offset: 2>>
}

// `index` values stand in for sizes, strides and the offset; the result type
// carries `?` exactly there. A dynamic layout is not bounds-checked at compile
// time.
// CHECK-LABEL: func @as_strided_dynamic(
//  CHECK-SAME:     %[[S:[^:]*]]: !layout.storage<?xf32>, %[[N:[^:]*]]: index, %[[ST:[^:]*]]: index, %[[O:[^:]*]]: index)
//       CHECK:   %[[A:.*]] = layout.as_strided %[[S]] [%[[N]], 4] strides [%[[ST]], 1] offset %[[O]] : !layout.storage<?xf32> -> !layout.tensor<?x4xf32, strided<[?, 1], offset: ?>>
//       CHECK:   %[[B:.*]] = layout.as_strided %[[S]] [3, 4] strides [4, 1] offset %[[O]] : !layout.storage<?xf32> -> !layout.tensor<3x4xf32, strided<[4, 1], offset: ?>>
//       CHECK:   %[[C:.*]] = layout.as_strided %[[S]] [3, %[[N]]] strides [%[[ST]], 1] offset 0 : !layout.storage<?xf32> -> !layout.tensor<3x?xf32>
//       CHECK:   return %[[A]], %[[B]], %[[C]]
func.func @as_strided_dynamic(%s: !layout.storage<?xf32>, %n: index, %st: index, %o: index)
    -> (!layout.tensor<?x4xf32, strided<[?, 1], offset: ?>>,
        !layout.tensor<3x4xf32, strided<[4, 1], offset: ?>>,
        !layout.tensor<3x?xf32, strided<[?, 1]>>) {
  %a = layout.as_strided %s [%n, 4] strides [%st, 1] offset %o : !layout.storage<?xf32>
  %b = layout.as_strided %s [3, 4] strides [4, 1] offset %o : !layout.storage<?xf32>
  // Row-major strides of 3x? are [?, 1]: the printer omits them.
  %c = layout.as_strided %s [3, %n] strides [%st, 1] offset 0 : !layout.storage<?xf32>
  return %a, %b, %c : !layout.tensor<?x4xf32, strided<[?, 1], offset: ?>>,
                      !layout.tensor<3x4xf32, strided<[4, 1], offset: ?>>,
                      !layout.tensor<3x?xf32, strided<[?, 1]>>
}

// A tensor base may itself be dynamic; a static result over it is accepted
// (its storage extent is unknown until run time).
// CHECK-LABEL: func @as_strided_dynamic_base(
//  CHECK-SAME:     %[[X:[^:]*]]: !layout.tensor<?x4xf16>, %[[N:[^:]*]]: index)
//       CHECK:   layout.as_strided %[[X]] [2, 2] strides [1, 1] offset 0 : !layout.tensor<?x4xf16> -> !layout.tensor<2x2xf16, strided<[1, 1]>>
//       CHECK:   layout.as_strided %[[X]] [%[[N]]] strides [4] offset 1 : !layout.tensor<?x4xf16> -> !layout.tensor<?xf16, strided<[4], offset: 1>>
func.func @as_strided_dynamic_base(%x: !layout.tensor<?x4xf16>, %n: index) {
  %a = layout.as_strided %x [2, 2] strides [1, 1] offset 0 : !layout.tensor<?x4xf16>
  %b = layout.as_strided %x [%n] strides [4] offset 1 : !layout.tensor<?x4xf16>
  return
}

//===----------------------------------------------------------------------===//
// view
//===----------------------------------------------------------------------===//

// -1 is inferred: 12 / 6 = 2.
// torch: torch.empty(3, 4).view(6, -1) -> (2, 1)
// CHECK-LABEL: func @view(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<3x4xf32>)
//       CHECK:   %[[V:.*]] = layout.view %[[X]] [6, -1] : !layout.tensor<3x4xf32> -> !layout.tensor<6x2xf32>
//       CHECK:   return %[[V]]
func.func @view(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<6x2xf32> {
  %v = layout.view %x [6, -1] : !layout.tensor<3x4xf32>
  return %v : !layout.tensor<6x2xf32>
}

// A transposed operand (4, 3):(1, 4) is two chunks; splitting the stride-1
// chunk of 4 into 2x2 gives strides (2 * 1, 1), the stride-4 dim keeps 4.
// torch: torch.empty(3, 4).t().view(2, 2, 3) -> (2, 1, 4)
// CHECK-LABEL: func @view_noncontiguous(
//       CHECK:   layout.view %{{.*}} [2, 2, 3] : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<2x2x3xf32, strided<[2, 1, 4]>>
func.func @view_noncontiguous(%x: !layout.tensor<4x3xf32, strided<[1, 4]>>) -> !layout.tensor<2x2x3xf32, strided<[2, 1, 4]>> {
  %v = layout.view %x [2, 2, 3] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %v : !layout.tensor<2x2x3xf32, strided<[2, 1, 4]>>
}

// A view keeps the operand's storage offset.
// torch: torch.empty(12)[4:].view(2, 4).view(-1) -> (1,), offset 4
// CHECK-LABEL: func @view_offset(
//       CHECK:   layout.view %{{.*}} [-1] : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>> -> !layout.tensor<8xf32, strided<[1], offset: 4>>
func.func @view_offset(%x: !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>) -> !layout.tensor<8xf32, strided<[1], offset: 4>> {
  %v = layout.view %x [-1] : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return %v : !layout.tensor<8xf32, strided<[1], offset: 4>>
}

// No elements: a new shape gets resize strides (max(size, 1) products);
// -1 next to a 3 is inferred as 0.
// torch: torch.empty(0, 3).view(3, 0) -> (1, 1); .view(-1, 3) -> (3, 1)
// CHECK-LABEL: func @view_empty(
//       CHECK:   layout.view %{{.*}} [3, 0] : !layout.tensor<0x3xf32> -> !layout.tensor<3x0xf32>
//       CHECK:   layout.view %{{.*}} [-1, 3] : !layout.tensor<0x3xf32> -> !layout.tensor<0x3xf32>
func.func @view_empty(%x: !layout.tensor<0x3xf32>) -> (!layout.tensor<3x0xf32, strided<[1, 1]>>, !layout.tensor<0x3xf32>) {
  %a = layout.view %x [3, 0] : !layout.tensor<0x3xf32>
  %b = layout.view %x [-1, 3] : !layout.tensor<0x3xf32>
  return %a, %b : !layout.tensor<3x0xf32, strided<[1, 1]>>, !layout.tensor<0x3xf32>
}

// torch: torch.empty(()).view(1) -> (1,); torch.empty(1, 1).view(()) -> ()
// CHECK-LABEL: func @view_rank0(
//       CHECK:   layout.view %{{.*}} [1] : !layout.tensor<f32> -> !layout.tensor<1xf32>
//       CHECK:   layout.view %{{.*}} [] : !layout.tensor<1x1xf32> -> !layout.tensor<f32>
func.func @view_rank0(%s: !layout.tensor<f32>, %x: !layout.tensor<1x1xf32>) -> (!layout.tensor<1xf32>, !layout.tensor<f32>) {
  %a = layout.view %s [1] : !layout.tensor<f32>
  %b = layout.view %x [] : !layout.tensor<1x1xf32>
  return %a, %b : !layout.tensor<1xf32>, !layout.tensor<f32>
}

//===----------------------------------------------------------------------===//
// permute, transpose, movedim
//===----------------------------------------------------------------------===//

// (2, 3, 4):(12, 4, 1) permuted by [2, 0, 1]: sizes (4, 2, 3), strides
// (1, 12, 4). Negative dims wrap: [1, -1, 0] = [1, 2, 0] -> (4, 1, 12).
// torch: x.permute(2, 0, 1) -> (1, 12, 4); x.permute(1, -1, 0) -> (4, 1, 12)
// CHECK-LABEL: func @permute(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<2x3x4xf32>)
//       CHECK:   %[[A:.*]] = layout.permute %[[X]] [2, 0, 1] : !layout.tensor<2x3x4xf32> -> !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
//       CHECK:   %[[B:.*]] = layout.permute %[[X]] [1, -1, 0] : !layout.tensor<2x3x4xf32> -> !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>
//       CHECK:   return %[[A]], %[[B]]
func.func @permute(%x: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>) {
  %a = layout.permute %x [2, 0, 1] : !layout.tensor<2x3x4xf32>
  %b = layout.permute %x [1, -1, 0] : !layout.tensor<2x3x4xf32>
  return %a, %b : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>
}

// Swapping dims 0 and 2 of (2, 3, 4):(12, 4, 1) -> (4, 3, 2):(1, 4, 12);
// -1, -2 are dims 2, 1 -> (2, 4, 3):(12, 1, 4).
// torch: x.transpose(0, 2) -> (1, 4, 12); x.transpose(-1, -2) -> (12, 1, 4)
// CHECK-LABEL: func @transpose(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<2x3x4xf32>)
//       CHECK:   layout.transpose %[[X]] 0, 2 : !layout.tensor<2x3x4xf32> -> !layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>
//       CHECK:   layout.transpose %[[X]] -1, -2 : !layout.tensor<2x3x4xf32> -> !layout.tensor<2x4x3xf32, strided<[12, 1, 4]>>
func.func @transpose(%x: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>, !layout.tensor<2x4x3xf32, strided<[12, 1, 4]>>) {
  %a = layout.transpose %x 0, 2 : !layout.tensor<2x3x4xf32>
  %b = layout.transpose %x -1, -2 : !layout.tensor<2x3x4xf32>
  return %a, %b : !layout.tensor<4x3x2xf32, strided<[1, 4, 12]>>, !layout.tensor<2x4x3xf32, strided<[12, 1, 4]>>
}

// The 2-D transpose: (3, 4):(4, 1) -> (4, 3):(1, 4).
// torch: torch.empty(3, 4).t() -> (1, 4)
// CHECK-LABEL: func @transpose_2d(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf32, strided<[1, 4]>>
//       CHECK:   %[[T:.*]] = layout.transpose %[[X]] 0, 1 : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[1, 4]>>
//       CHECK:   return %[[T]] : !layout.tensor<4x3xf32, strided<[1, 4]>>
func.func @transpose_2d(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf32, strided<[1, 4]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  return %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
}

// Transposing a dim with itself, and rank 0 (dims 0 and -1 wrap to 0), are
// identities.
// torch: x.transpose(1, 1); torch.empty(()).transpose(0, -1)
// CHECK-LABEL: func @transpose_identity(
//       CHECK:   layout.transpose %{{.*}} 1, 1 : !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>> -> !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>
//       CHECK:   layout.transpose %{{.*}} 0, -1 : !layout.tensor<f32> -> !layout.tensor<f32>
func.func @transpose_identity(%x: !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>, %s: !layout.tensor<f32>) {
  %a = layout.transpose %x 1, 1 : !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>
  %b = layout.transpose %s 0, -1 : !layout.tensor<f32>
  return
}

// movedim 0 to 2 is permute [1, 2, 0]: (3, 4, 2):(4, 1, 12); movedim -1 to 0
// is permute [2, 0, 1]: (4, 2, 3):(1, 12, 4).
// torch: x.movedim(0, 2) -> (4, 1, 12); x.movedim(-1, 0) -> (1, 12, 4)
// CHECK-LABEL: func @movedim(
//       CHECK:   layout.movedim %{{.*}} 0 to 2 : !layout.tensor<2x3x4xf32> -> !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>
//       CHECK:   layout.movedim %{{.*}} -1 to 0 : !layout.tensor<2x3x4xf32> -> !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
func.func @movedim(%x: !layout.tensor<2x3x4xf32>) -> (!layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>) {
  %a = layout.movedim %x 0 to 2 : !layout.tensor<2x3x4xf32>
  %b = layout.movedim %x -1 to 0 : !layout.tensor<2x3x4xf32>
  return %a, %b : !layout.tensor<3x4x2xf32, strided<[4, 1, 12]>>, !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

// Every spelling of the bounds, on (4, 8):(8, 1). A step of 1 is not printed.
// torch: x[:, 1:100:2] -> sizes (4, 4): end clamps to 8, ceil((8 - 1) / 2) = 4;
//        stride 1 * 2 = 2; offset 1 * 1 = 1
// torch: x[:, :5]  -> (4, 5):(8, 1)+0
// torch: x[:, 2:]  -> (4, 6):(8, 1)+2
// torch: x[:, :]   -> (4, 8):(8, 1)+0, the operand's own type
// torch: x[:, ::2] -> (4, 4):(8, 2)+0
// torch: x[:, -3:-1] -> -3 + 8 = 5, -1 + 8 = 7: (4, 2):(8, 1)+5
// torch: x[1:3] -> (2, 8):(8, 1), offset 1 * 8 = 8
// torch: x[:, 6:2] -> end clamps to start: (4, 0):(8, 1)+6
// torch: x[:, 1:3:1] -> (4, 2):(8, 1)+1
// CHECK-LABEL: func @slice(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<4x8xf32>)
//       CHECK:   layout.slice %[[X]] dim 1 [1 : 100 : 2] : !layout.tensor<4x8xf32> -> !layout.tensor<4x4xf32, strided<[8, 2], offset: 1>>
//       CHECK:   layout.slice %[[X]] dim 1 [: 5] : !layout.tensor<4x8xf32> -> !layout.tensor<4x5xf32, strided<[8, 1]>>
//       CHECK:   layout.slice %[[X]] dim 1 [2 :] : !layout.tensor<4x8xf32> -> !layout.tensor<4x6xf32, strided<[8, 1], offset: 2>>
//       CHECK:   layout.slice %[[X]] dim 1 [:] : !layout.tensor<4x8xf32> -> !layout.tensor<4x8xf32>
//       CHECK:   layout.slice %[[X]] dim 1 [: : 2] : !layout.tensor<4x8xf32> -> !layout.tensor<4x4xf32, strided<[8, 2]>>
//       CHECK:   layout.slice %[[X]] dim -1 [-3 : -1] : !layout.tensor<4x8xf32> -> !layout.tensor<4x2xf32, strided<[8, 1], offset: 5>>
//       CHECK:   layout.slice %[[X]] dim 0 [1 : 3] : !layout.tensor<4x8xf32> -> !layout.tensor<2x8xf32, strided<[8, 1], offset: 8>>
//       CHECK:   layout.slice %[[X]] dim 1 [6 : 2] : !layout.tensor<4x8xf32> -> !layout.tensor<4x0xf32, strided<[8, 1], offset: 6>>
//       CHECK:   layout.slice %[[X]] dim 1 [1 : 3] : !layout.tensor<4x8xf32> -> !layout.tensor<4x2xf32, strided<[8, 1], offset: 1>>
func.func @slice(%x: !layout.tensor<4x8xf32>) {
  %0 = layout.slice %x dim 1 [1 : 100 : 2] : !layout.tensor<4x8xf32>
  %1 = layout.slice %x dim 1 [: 5] : !layout.tensor<4x8xf32>
  %2 = layout.slice %x dim 1 [2 :] : !layout.tensor<4x8xf32>
  %3 = layout.slice %x dim 1 [:] : !layout.tensor<4x8xf32>
  %4 = layout.slice %x dim 1 [: : 2] : !layout.tensor<4x8xf32>
  %5 = layout.slice %x dim -1 [-3 : -1] : !layout.tensor<4x8xf32>
  %6 = layout.slice %x dim 0 [1 : 3] : !layout.tensor<4x8xf32>
  %7 = layout.slice %x dim 1 [6 : 2] : !layout.tensor<4x8xf32>
  %8 = layout.slice %x dim 1 [1 : 3 : 1] : !layout.tensor<4x8xf32>
  return
}

// Slicing composes with the operand's offset and strides: (8, 3):(1, 8)+2
// sliced [1 : 7 : 3] on dim 0 -> sizes ceil(6 / 3) = 2, stride 1 * 3 = 3,
// offset 2 + 1 * 1 = 3.
// torch: torch.empty(26)[2:].as_strided((8, 3), (1, 8), 2)[1:7:3]
// CHECK-LABEL: func @slice_strided(
//       CHECK:   layout.slice %{{.*}} dim 0 [1 : 7 : 3] : !layout.tensor<8x3xf32, strided<[1, 8], offset: 2>> -> !layout.tensor<2x3xf32, strided<[3, 8], offset: 3>>
func.func @slice_strided(%x: !layout.tensor<8x3xf32, strided<[1, 8], offset: 2>>) -> !layout.tensor<2x3xf32, strided<[3, 8], offset: 3>> {
  %0 = layout.slice %x dim 0 [1 : 7 : 3] : !layout.tensor<8x3xf32, strided<[1, 8], offset: 2>>
  return %0 : !layout.tensor<2x3xf32, strided<[3, 8], offset: 3>>
}

//===----------------------------------------------------------------------===//
// select, narrow
//===----------------------------------------------------------------------===//

// select drops the dim: on (3, 4):(4, 1), dim 0 index 1 -> offset 0 + 1 * 4
// = 4; dim 1 index -1 -> index 3, offset 0 + 3 * 1 = 3, stride (4).
// torch: x.select(0, 1) -> (4,):(1,)+4; x.select(1, -1) -> (3,):(4,)+3
// CHECK-LABEL: func @select(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<3x4xf32>)
//       CHECK:   %[[A:.*]] = layout.select %[[X]] dim 0 index 1 : !layout.tensor<3x4xf32> -> !layout.tensor<4xf32, strided<[1], offset: 4>>
//       CHECK:   %[[B:.*]] = layout.select %[[X]] dim 1 index -1 : !layout.tensor<3x4xf32> -> !layout.tensor<3xf32, strided<[4], offset: 3>>
//       CHECK:   return %[[A]], %[[B]]
func.func @select(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<3xf32, strided<[4], offset: 3>>) {
  %a = layout.select %x dim 0 index 1 : !layout.tensor<3x4xf32>
  %b = layout.select %x dim 1 index -1 : !layout.tensor<3x4xf32>
  return %a, %b : !layout.tensor<4xf32, strided<[1], offset: 4>>, !layout.tensor<3xf32, strided<[4], offset: 3>>
}

// Selecting the last dim of a rank-1 view gives rank 0 at offset 5 + 2 * 3.
// torch: torch.empty(12)[5::3].select(0, 2) -> ()+11
// CHECK-LABEL: func @select_to_rank0(
//       CHECK:   layout.select %{{.*}} dim 0 index 2 : !layout.tensor<3xf32, strided<[3], offset: 5>> -> !layout.tensor<f32, strided<[], offset: 11>>
func.func @select_to_rank0(%x: !layout.tensor<3xf32, strided<[3], offset: 5>>) -> !layout.tensor<f32, strided<[], offset: 11>> {
  %a = layout.select %x dim 0 index 2 : !layout.tensor<3xf32, strided<[3], offset: 5>>
  return %a : !layout.tensor<f32, strided<[], offset: 11>>
}

// narrow dim 2 start 1 length 2 on (2, 3, 4):(12, 4, 1): size 2, offset
// 1 * 1 = 1. A negative start wraps: dim 0 start -1 on (3, 4) is row 2,
// offset 2 * 4 = 8. start == size with length 0 is an empty view at the end:
// offset 4 * 1 = 4.
// torch: x.narrow(2, 1, 2) -> (12, 4, 1)+1; y.narrow(0, -1, 1) -> (4, 1)+8;
//        y.narrow(1, 4, 0) -> (3, 0):(4, 1)+4
// CHECK-LABEL: func @narrow(
//       CHECK:   layout.narrow %{{.*}} dim 2 start 1 length 2 : !layout.tensor<2x3x4xf32> -> !layout.tensor<2x3x2xf32, strided<[12, 4, 1], offset: 1>>
//       CHECK:   layout.narrow %{{.*}} dim 0 start -1 length 1 : !layout.tensor<3x4xf32> -> !layout.tensor<1x4xf32, strided<[4, 1], offset: 8>>
//       CHECK:   layout.narrow %{{.*}} dim 1 start 4 length 0 : !layout.tensor<3x4xf32> -> !layout.tensor<3x0xf32, strided<[4, 1], offset: 4>>
func.func @narrow(%x: !layout.tensor<2x3x4xf32>, %y: !layout.tensor<3x4xf32>) {
  %a = layout.narrow %x dim 2 start 1 length 2 : !layout.tensor<2x3x4xf32>
  %b = layout.narrow %y dim 0 start -1 length 1 : !layout.tensor<3x4xf32>
  %c = layout.narrow %y dim 1 start 4 length 0 : !layout.tensor<3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// expand
//===----------------------------------------------------------------------===//

// (1, 3, 4):(12, 4, 1) expanded to [5, -1, -1, -1]: a new leading dim of
// size 5 gets stride 0; -1 keeps size and stride (the size-1 dim keeps 12).
// Expanding the size-1 dim to 2 sets its stride to 0.
// torch: x.expand(5, -1, -1, -1) -> (0, 12, 4, 1); x.expand(2, 3, 4) -> (0, 4, 1)
// CHECK-LABEL: func @expand(
//       CHECK:   layout.expand %{{.*}} [5, -1, -1, -1] : !layout.tensor<1x3x4xf32> -> !layout.tensor<5x1x3x4xf32, strided<[0, 12, 4, 1]>>
//       CHECK:   layout.expand %{{.*}} [2, 3, 4] : !layout.tensor<1x3x4xf32> -> !layout.tensor<2x3x4xf32, strided<[0, 4, 1]>>
func.func @expand(%x: !layout.tensor<1x3x4xf32>) -> (!layout.tensor<5x1x3x4xf32, strided<[0, 12, 4, 1]>>, !layout.tensor<2x3x4xf32, strided<[0, 4, 1]>>) {
  %a = layout.expand %x [5, -1, -1, -1] : !layout.tensor<1x3x4xf32>
  %b = layout.expand %x [2, 3, 4] : !layout.tensor<1x3x4xf32>
  return %a, %b : !layout.tensor<5x1x3x4xf32, strided<[0, 12, 4, 1]>>, !layout.tensor<2x3x4xf32, strided<[0, 4, 1]>>
}

// A new leading dim of size 1 gets stride size * stride of the dim after it
// (3 * 1 = 3); a rank-0 operand broadcasts with all-0 strides; the offset is
// kept.
// torch: torch.empty(3).expand(1, 3) -> (3, 1); torch.empty(()).expand(3, 2) -> (0, 0);
//        torch.empty(3, 4)[:, 1:2].expand(3, 5) -> (4, 0)+1
// CHECK-LABEL: func @expand_edges(
//       CHECK:   layout.expand %{{.*}} [1, 3] : !layout.tensor<3xf32> -> !layout.tensor<1x3xf32>
//       CHECK:   layout.expand %{{.*}} [3, 2] : !layout.tensor<f32> -> !layout.tensor<3x2xf32, strided<[0, 0]>>
//       CHECK:   layout.expand %{{.*}} [3, 5] : !layout.tensor<3x1xf32, strided<[4, 1], offset: 1>> -> !layout.tensor<3x5xf32, strided<[4, 0], offset: 1>>
func.func @expand_edges(%v: !layout.tensor<3xf32>, %s: !layout.tensor<f32>, %c: !layout.tensor<3x1xf32, strided<[4, 1], offset: 1>>) {
  %a = layout.expand %v [1, 3] : !layout.tensor<3xf32>
  %b = layout.expand %s [3, 2] : !layout.tensor<f32>
  %d = layout.expand %c [3, 5] : !layout.tensor<3x1xf32, strided<[4, 1], offset: 1>>
  return
}

//===----------------------------------------------------------------------===//
// squeeze, unsqueeze
//===----------------------------------------------------------------------===//

// On (1, 3, 1):(12, 4, 1)+2: [] drops both size-1 dims -> (3):(4)+2; [2]
// drops dim 2 -> (1, 3):(12, 4)+2; [1] names a dim of size 3, which stays.
// [0, -1] drops dims 0 and 2 (a list of dims is PyTorch 2.0's squeeze).
// torch: x.squeeze() -> (4,)+2; x.squeeze(2) -> (12, 4)+2; x.squeeze(1) -> unchanged
// CHECK-LABEL: func @squeeze(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>)
//       CHECK:   layout.squeeze %[[X]] [] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>> -> !layout.tensor<3xf32, strided<[4], offset: 2>>
//       CHECK:   layout.squeeze %[[X]] [2] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>> -> !layout.tensor<1x3xf32, strided<[12, 4], offset: 2>>
//       CHECK:   layout.squeeze %[[X]] [1] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>> -> !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>
//       CHECK:   layout.squeeze %[[X]] [0, -1] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>> -> !layout.tensor<3xf32, strided<[4], offset: 2>>
func.func @squeeze(%x: !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>) {
  %a = layout.squeeze %x [] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>
  %b = layout.squeeze %x [2] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>
  %c = layout.squeeze %x [1] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>
  %d = layout.squeeze %x [0, -1] : !layout.tensor<1x3x1xf32, strided<[12, 4, 1], offset: 2>>
  return
}

// unsqueeze dim d inserts a size-1 dim with stride size[d] * stride[d]
// (at the end: 1). On (4, 3):(1, 4), dim 1 -> stride 3 * 4 = 12.
// torch: torch.empty(3, 4).t().unsqueeze(1) -> (1, 12, 4);
//        torch.empty(3, 4).unsqueeze(-1) -> (4, 1, 1); torch.empty(()).unsqueeze(0) -> (1,)
// CHECK-LABEL: func @unsqueeze(
//       CHECK:   layout.unsqueeze %{{.*}} dim 1 : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x1x3xf32, strided<[1, 12, 4]>>
//       CHECK:   layout.unsqueeze %{{.*}} dim -1 : !layout.tensor<3x4xf32> -> !layout.tensor<3x4x1xf32>
//       CHECK:   layout.unsqueeze %{{.*}} dim 0 : !layout.tensor<f32> -> !layout.tensor<1xf32>
func.func @unsqueeze(%x: !layout.tensor<4x3xf32, strided<[1, 4]>>, %y: !layout.tensor<3x4xf32>, %s: !layout.tensor<f32>) {
  %a = layout.unsqueeze %x dim 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %b = layout.unsqueeze %y dim -1 : !layout.tensor<3x4xf32>
  %c = layout.unsqueeze %s dim 0 : !layout.tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// unflatten, diagonal, unfold, flip
//===----------------------------------------------------------------------===//

// dim 2 of (2, 3, 4) into [2, 2]: row-major (12, 4, 2, 1). dim 0 of
// (6, 4):(1, 6) into [2, -1]: -1 = 6 / 2 = 3, the stride-1 dim splits into
// (3 * 1, 1) -> (2, 3, 4):(3, 1, 6).
// torch: x.unflatten(2, (2, 2)); torch.empty(4, 6).t().unflatten(0, (2, -1)) -> (3, 1, 6)
// CHECK-LABEL: func @unflatten(
//       CHECK:   layout.unflatten %{{.*}} dim 2 [2, 2] : !layout.tensor<2x3x4xf32> -> !layout.tensor<2x3x2x2xf32>
//       CHECK:   layout.unflatten %{{.*}} dim 0 [2, -1] : !layout.tensor<6x4xf32, strided<[1, 6]>> -> !layout.tensor<2x3x4xf32, strided<[3, 1, 6]>>
func.func @unflatten(%x: !layout.tensor<2x3x4xf32>, %y: !layout.tensor<6x4xf32, strided<[1, 6]>>) {
  %a = layout.unflatten %x dim 2 [2, 2] : !layout.tensor<2x3x4xf32>
  %b = layout.unflatten %y dim 0 [2, -1] : !layout.tensor<6x4xf32, strided<[1, 6]>>
  return
}

// diagonal offset 1 of dims 1, 2 of (2, 3, 4):(12, 4, 1): size
// min(3, 4 - 1) = 3 appended last, stride 4 + 1 = 5, offset 1 * 1 = 1.
// offset -1 of (3, 4):(4, 1): size min(3 - 1, 4) = 2, offset 1 * 4 = 4.
// An offset past the end gives size 0 and keeps the offset (0).
// dims -1, 0 of (2, 3, 4): size min(4, 2) = 2, stride 1 + 12 = 13.
// torch: x.diagonal(1, 1, 2) -> (2, 3):(12, 5)+1; y.diagonal(-1) -> (2,):(5,)+4;
//        y.diagonal(10) -> (0,):(5,)+0; x.diagonal(0, -1, 0) -> (3, 2):(4, 13)
// CHECK-LABEL: func @diagonal(
//       CHECK:   layout.diagonal %{{.*}} offset 1 dims 1, 2 : !layout.tensor<2x3x4xf32> -> !layout.tensor<2x3xf32, strided<[12, 5], offset: 1>>
//       CHECK:   layout.diagonal %{{.*}} offset -1 dims 0, 1 : !layout.tensor<3x4xf32> -> !layout.tensor<2xf32, strided<[5], offset: 4>>
//       CHECK:   layout.diagonal %{{.*}} offset 10 dims 0, 1 : !layout.tensor<3x4xf32> -> !layout.tensor<0xf32, strided<[5]>>
//       CHECK:   layout.diagonal %{{.*}} offset 0 dims -1, 0 : !layout.tensor<2x3x4xf32> -> !layout.tensor<3x2xf32, strided<[4, 13]>>
func.func @diagonal(%x: !layout.tensor<2x3x4xf32>, %y: !layout.tensor<3x4xf32>) {
  %a = layout.diagonal %x offset 1 dims 1, 2 : !layout.tensor<2x3x4xf32>
  %b = layout.diagonal %y offset -1 dims 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.diagonal %y offset 10 dims 0, 1 : !layout.tensor<3x4xf32>
  %d = layout.diagonal %x offset 0 dims -1, 0 : !layout.tensor<2x3x4xf32>
  return
}

// unfold dim d size k step s: dim d becomes (size[d] - k) / s + 1 windows of
// stride s * stride[d]; a new last dim of size k has stride stride[d].
// (2, 3, 4) dim 2 size 2 step 1: (4 - 2) / 1 + 1 = 3 -> (12, 4, 1, 1).
// (3, 8) dim 1 size 3 step 2: (8 - 3) / 2 + 1 = 3 -> (8, 2, 1).
// Rank 0: a single window of size 1 -> (1):(1).
// torch: x.unfold(2, 2, 1); torch.empty(3, 8).unfold(1, 3, 2); torch.empty(()).unfold(0, 1, 1)
// CHECK-LABEL: func @unfold(
//       CHECK:   layout.unfold %{{.*}} dim 2 size 2 step 1 : !layout.tensor<2x3x4xf32> -> !layout.tensor<2x3x3x2xf32, strided<[12, 4, 1, 1]>>
//       CHECK:   layout.unfold %{{.*}} dim 1 size 3 step 2 : !layout.tensor<3x8xf32> -> !layout.tensor<3x3x3xf32, strided<[8, 2, 1]>>
//       CHECK:   layout.unfold %{{.*}} dim 0 size 1 step 1 : !layout.tensor<f32> -> !layout.tensor<1xf32>
func.func @unfold(%x: !layout.tensor<2x3x4xf32>, %y: !layout.tensor<3x8xf32>, %s: !layout.tensor<f32>) {
  %a = layout.unfold %x dim 2 size 2 step 1 : !layout.tensor<2x3x4xf32>
  %b = layout.unfold %y dim 1 size 3 step 2 : !layout.tensor<3x8xf32>
  %c = layout.unfold %s dim 0 size 1 step 1 : !layout.tensor<f32>
  return
}

// (ext) flip negates the strides of the flipped dims and moves the offset to
// their last element: [0] on (3, 4):(4, 1) -> offset 2 * 4 = 8; [0, -1] ->
// offset 2 * 4 + 3 * 1 = 11. Flipping (3, 4):(-4, 1)+8 back gives
// 8 + 2 * -4 = 0 and the row-major layout.
// numpy: np.flip(a, 0) -> strides (-4, 1) elements, offset 8; np.flip(a) -> (-4, -1), 11
// CHECK-LABEL: func @flip(
//       CHECK:   %[[A:.*]] = layout.flip %{{.*}} [0] : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
//       CHECK:   layout.flip %{{.*}} [0, -1] : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[-4, -1], offset: 11>>
//       CHECK:   layout.flip %[[A]] [0] : !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>> -> !layout.tensor<3x4xf32>
func.func @flip(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32> {
  %a = layout.flip %x [0] : !layout.tensor<3x4xf32>
  %b = layout.flip %x [0, -1] : !layout.tensor<3x4xf32>
  %c = layout.flip %a [0] : !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
  return %c : !layout.tensor<3x4xf32>
}

//===----------------------------------------------------------------------===//
// split
//===----------------------------------------------------------------------===//

// One narrow per size: part i starts at the sum of the sizes before it.
// dim 0 [1, 1] of (2, 3): offsets 0 and 1 * 3 = 3. dim 1 [1, 0, 3] of
// (2, 4): offsets 0, 1, 1 (the empty part sits between its neighbours).
// torch: torch.empty(2, 3).split([1, 1], 0); torch.empty(2, 4).split([1, 0, 3], 1)
// CHECK-LABEL: func @split(
//  CHECK-SAME:     %[[X:[^:]*]]: !layout.tensor<2x3xf32>, %[[Y:[^:]*]]: !layout.tensor<2x4xf32>)
//       CHECK:   %[[A:.*]]:2 = layout.split %[[X]] dim 0 [1, 1] : !layout.tensor<2x3xf32> -> !layout.tensor<1x3xf32>, !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>
//       CHECK:   %[[B:.*]]:3 = layout.split %[[Y]] dim 1 [1, 0, 3] : !layout.tensor<2x4xf32> -> !layout.tensor<2x1xf32, strided<[4, 1]>>, !layout.tensor<2x0xf32, strided<[4, 1], offset: 1>>, !layout.tensor<2x3xf32, strided<[4, 1], offset: 1>>
//       CHECK:   return %[[A]]#0, %[[A]]#1, %[[B]]#2
func.func @split(%x: !layout.tensor<2x3xf32>, %y: !layout.tensor<2x4xf32>)
    -> (!layout.tensor<1x3xf32>, !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>,
        !layout.tensor<2x3xf32, strided<[4, 1], offset: 1>>) {
  %a, %b = layout.split %x dim 0 [1, 1] : !layout.tensor<2x3xf32>
  %c:3 = layout.split %y dim 1 [1, 0, 3] : !layout.tensor<2x4xf32>
  return %a, %b, %c#2 : !layout.tensor<1x3xf32>, !layout.tensor<1x3xf32, strided<[3, 1], offset: 3>>,
                        !layout.tensor<2x3xf32, strided<[4, 1], offset: 1>>
}

//===----------------------------------------------------------------------===//
// reshape, flatten
//===----------------------------------------------------------------------===//

// (4, 6):(1, 4) cannot be viewed as [6, 4] (the stride-1 dim of 4 would
// have to split across rows of 4 elements that are not adjacent): a row-major
// copy, offset 0. A viewable reshape is a view and keeps the offset.
// torch: torch.empty(6, 4).t().reshape(6, 4) -> (4, 1), a copy;
//        torch.empty(12)[4:].view(2, 4).reshape(-1) -> (1,)+4, a view
// CHECK-LABEL: func @reshape(
//       CHECK:   layout.reshape %{{.*}} [6, 4] : !layout.tensor<4x6xf32, strided<[1, 4]>> -> !layout.tensor<6x4xf32>
//       CHECK:   layout.reshape %{{.*}} [-1] : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>> -> !layout.tensor<8xf32, strided<[1], offset: 4>>
func.func @reshape(%x: !layout.tensor<4x6xf32, strided<[1, 4]>>, %y: !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>) {
  %a = layout.reshape %x [6, 4] : !layout.tensor<4x6xf32, strided<[1, 4]>>
  %b = layout.reshape %y [-1] : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return
}

// dims 1 to 2 of (2, 3, 4): a view (2, 12). On (4, 2, 3):(1, 12, 4):
// dims 0 to 1 do not merge (stride 1 != 2 * 12) -> a row-major copy (8, 3);
// dims 1 to 2 merge (12 == 3 * 4) -> a view (4, 6):(1, 4).
// start == end is the operand itself; rank 0 flattens to (1).
// torch: x.flatten(1, 2); p.flatten(0, 1) -> (3, 1) copy; p.flatten(1, 2) -> (1, 4);
//        p.flatten(2, 2) -> p; torch.empty(()).flatten() -> (1,)
// CHECK-LABEL: func @flatten(
//       CHECK:   layout.flatten %{{.*}} dims 1 to 2 : !layout.tensor<2x3x4xf32> -> !layout.tensor<2x12xf32>
//       CHECK:   layout.flatten %{{.*}} dims 0 to 1 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> -> !layout.tensor<8x3xf32>
//       CHECK:   layout.flatten %{{.*}} dims 1 to -1 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> -> !layout.tensor<4x6xf32, strided<[1, 4]>>
//       CHECK:   layout.flatten %{{.*}} dims 2 to 2 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> -> !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
//       CHECK:   layout.flatten %{{.*}} dims 0 to -1 : !layout.tensor<f32> -> !layout.tensor<1xf32>
func.func @flatten(%x: !layout.tensor<2x3x4xf32>, %p: !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, %s: !layout.tensor<f32>) {
  %a = layout.flatten %x dims 1 to 2 : !layout.tensor<2x3x4xf32>
  %b = layout.flatten %p dims 0 to 1 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %c = layout.flatten %p dims 1 to -1 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %d = layout.flatten %p dims 2 to 2 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %e = layout.flatten %s dims 0 to -1 : !layout.tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// contiguous, clone, to
//===----------------------------------------------------------------------===//

// A transposed operand is copied to row-major strides. An operand already
// contiguous is returned itself, offset included. Size-1 dims are ignored:
// (1, 4):(1, 1) is contiguous and keeps its strides.
// torch: torch.empty(3, 4).t().contiguous() -> (3, 1);
//        torch.empty(12)[4:].view(2, 4).contiguous() -> (4, 1)+4;
//        torch.empty(4).as_strided((1, 4), (1, 1)).contiguous() -> (1, 1)
// CHECK-LABEL: func @contiguous(
//       CHECK:   layout.contiguous %{{.*}} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32>
//       CHECK:   layout.contiguous %{{.*}} : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>> -> !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
//       CHECK:   layout.contiguous %{{.*}} : !layout.tensor<1x4xf32, strided<[1, 1]>> -> !layout.tensor<1x4xf32, strided<[1, 1]>>
//       CHECK:   layout.contiguous %{{.*}} contiguous : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32>
func.func @contiguous(%t: !layout.tensor<4x3xf32, strided<[1, 4]>>, %o: !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>, %u: !layout.tensor<1x4xf32, strided<[1, 1]>>) {
  %a = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %b = layout.contiguous %o : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  %c = layout.contiguous %u : !layout.tensor<1x4xf32, strided<[1, 1]>>
  %d = layout.contiguous %t contiguous : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return
}

// channels_last of (N, C, H, W) = (2, 3, 4, 5): C innermost (1), then
// W (3), H (3 * 5 = 15), N (15 * 4 = 60). An operand already channels-last
// is returned itself. channels_last_3d of (2, 3, 4, 5, 6): C 1, W 3,
// H 3 * 6 = 18, D 18 * 5 = 90, N 90 * 4 = 360.
// torch: x.contiguous(memory_format=torch.channels_last) -> (60, 1, 15, 3);
//        v.contiguous(memory_format=torch.channels_last_3d) -> (360, 1, 90, 18, 3)
// CHECK-LABEL: func @contiguous_channels_last(
//       CHECK:   layout.contiguous %{{.*}} channels_last : !layout.tensor<2x3x4x5xf32> -> !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
//       CHECK:   layout.contiguous %{{.*}} channels_last : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>> -> !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
//       CHECK:   layout.contiguous %{{.*}} channels_last_3d : !layout.tensor<2x3x4x5x6xf32> -> !layout.tensor<2x3x4x5x6xf32, strided<[360, 1, 90, 18, 3]>>
func.func @contiguous_channels_last(%x: !layout.tensor<2x3x4x5xf32>, %n: !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>, %v: !layout.tensor<2x3x4x5x6xf32>) {
  %a = layout.contiguous %x channels_last : !layout.tensor<2x3x4x5xf32>
  %b = layout.contiguous %n channels_last : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
  %c = layout.contiguous %v channels_last_3d : !layout.tensor<2x3x4x5x6xf32>
  return
}

// clone is always new storage at offset 0. preserve (the default) keeps the
// strides of a non-overlapping and dense operand ((4, 2, 3):(1, 12, 4)) and
// drops an offset; a non-dense operand (6, 2):(1, 12) gets dense strides in
// its own dim order (dim 0 innermost: (1, 6)); an expanded (3, 4):(0, 1)
// becomes row-major.
// torch: p.clone() -> (1, 12, 4); torch.empty(4, 6).t()[:, ::2].clone() -> (1, 6);
//        torch.empty(4).expand(3, 4).clone() -> (4, 1);
//        torch.empty(12)[4:].view(2, 4).clone() -> (4, 1)+0
// CHECK-LABEL: func @clone(
//       CHECK:   layout.clone %{{.*}} : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> -> !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
//       CHECK:   layout.clone %{{.*}} : !layout.tensor<6x2xf32, strided<[1, 12]>> -> !layout.tensor<6x2xf32, strided<[1, 6]>>
//       CHECK:   layout.clone %{{.*}} : !layout.tensor<3x4xf32, strided<[0, 1]>> -> !layout.tensor<3x4xf32>
//       CHECK:   layout.clone %{{.*}} : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>> -> !layout.tensor<2x4xf32>
//       CHECK:   layout.clone %{{.*}} preserve : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> -> !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
func.func @clone(%p: !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, %n: !layout.tensor<6x2xf32, strided<[1, 12]>>,
                 %e: !layout.tensor<3x4xf32, strided<[0, 1]>>, %o: !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>) {
  %a = layout.clone %p : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %b = layout.clone %n : !layout.tensor<6x2xf32, strided<[1, 12]>>
  %c = layout.clone %e : !layout.tensor<3x4xf32, strided<[0, 1]>>
  %d = layout.clone %o : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  %f = layout.clone %p preserve : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  return
}

// A forced format ignores the operand's strides.
// torch: p.clone(memory_format=torch.contiguous_format) -> (6, 3, 1);
//        x.clone(memory_format=torch.channels_last) -> (60, 1, 15, 3);
//        v.clone(memory_format=torch.channels_last_3d) -> (360, 1, 90, 18, 3)
// CHECK-LABEL: func @clone_formats(
//       CHECK:   layout.clone %{{.*}} contiguous : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> -> !layout.tensor<4x2x3xf32>
//       CHECK:   layout.clone %{{.*}} channels_last : !layout.tensor<2x3x4x5xf32> -> !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
//       CHECK:   layout.clone %{{.*}} channels_last_3d : !layout.tensor<2x3x4x5x6xf32> -> !layout.tensor<2x3x4x5x6xf32, strided<[360, 1, 90, 18, 3]>>
func.func @clone_formats(%p: !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, %x: !layout.tensor<2x3x4x5xf32>, %v: !layout.tensor<2x3x4x5x6xf32>) {
  %a = layout.clone %p contiguous : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %b = layout.clone %x channels_last : !layout.tensor<2x3x4x5xf32>
  %c = layout.clone %v channels_last_3d : !layout.tensor<2x3x4x5x6xf32>
  return
}

// to a new dtype: new storage with preserve strides ((1, 12, 4) kept;
// (6, 2):(1, 12) made dense (1, 6)). The same dtype is the operand itself,
// offset included.
// torch: p.to(torch.float16) -> (1, 12, 4); n.to(torch.float16) -> (1, 6);
//        o.to(torch.float32) is o -> (4, 1)+4
// CHECK-LABEL: func @to(
//       CHECK:   layout.to %{{.*}} f16 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> -> !layout.tensor<4x2x3xf16, strided<[1, 12, 4]>>
//       CHECK:   layout.to %{{.*}} f16 : !layout.tensor<6x2xf32, strided<[1, 12]>> -> !layout.tensor<6x2xf16, strided<[1, 6]>>
//       CHECK:   layout.to %{{.*}} f32 : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>> -> !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
//       CHECK:   layout.to %{{.*}} i1 : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>> -> !layout.tensor<2x4xi1>
//       CHECK:   layout.to %{{.*}} bf16 : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>> -> !layout.tensor<2x4xbf16>
func.func @to(%p: !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>, %n: !layout.tensor<6x2xf32, strided<[1, 12]>>, %o: !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>) {
  %a = layout.to %p f16 : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
  %b = layout.to %n f16 : !layout.tensor<6x2xf32, strided<[1, 12]>>
  %c = layout.to %o f32 : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  %d = layout.to %o i1 : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  %e = layout.to %o bf16 : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
  return
}

//===----------------------------------------------------------------------===//
// copy
//===----------------------------------------------------------------------===//

// dst.copy_(src): src (4) broadcasts to dst's (3, 4) and converts to f16;
// a transposed dst (3, 4):(1, 3) receives elements in its own order; a
// (3, 1) src broadcasts along dim 1. copy has no results.
// torch: torch.empty(3, 4, dtype=torch.float16).copy_(torch.empty(4));
//        torch.empty(4, 3).t().copy_(torch.empty(3, 1, dtype=torch.int32))
// CHECK-LABEL: func @copy(
//  CHECK-SAME:     %[[S:[^:]*]]: !layout.tensor<4xf32>, %[[D:[^:]*]]: !layout.tensor<3x4xf16>, %[[T:[^:]*]]: !layout.tensor<3x4xf16, strided<[1, 3]>>, %[[C:[^:]*]]: !layout.tensor<3x1xi32>)
//       CHECK:   layout.copy %[[S]], %[[D]] : !layout.tensor<4xf32>, !layout.tensor<3x4xf16>
//  CHECK-NEXT:   layout.copy %[[D]], %[[T]] : !layout.tensor<3x4xf16>, !layout.tensor<3x4xf16, strided<[1, 3]>>
//  CHECK-NEXT:   layout.copy %[[C]], %[[T]] : !layout.tensor<3x1xi32>, !layout.tensor<3x4xf16, strided<[1, 3]>>
//  CHECK-NEXT:   return
func.func @copy(%s: !layout.tensor<4xf32>, %d: !layout.tensor<3x4xf16>, %t: !layout.tensor<3x4xf16, strided<[1, 3]>>, %c: !layout.tensor<3x1xi32>) {
  layout.copy %s, %d : !layout.tensor<4xf32>, !layout.tensor<3x4xf16>
  layout.copy %d, %t : !layout.tensor<3x4xf16>, !layout.tensor<3x4xf16, strided<[1, 3]>>
  layout.copy %c, %t : !layout.tensor<3x1xi32>, !layout.tensor<3x4xf16, strided<[1, 3]>>
  return
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

// Every kind on (2, 3, 4). The result is a new row-major tensor: reduced
// dims are dropped, or kept as size 1 with keepdim; `dims []` reduces all.
// torch: x.sum((1, 2), keepdim=True) -> (2, 1, 1); x.mean(-1) -> (2, 3);
//        x.prod(1) -> (2, 4); x.amax(0) -> (3, 4); x.amin((0, 2), keepdim=True) -> (1, 3, 1);
//        x.argmax(1) -> (2, 4) int64; x.argmin() -> () int64;
//        x.argmax(keepdim=True) -> (1, 1, 1); x.sum(dim=[]) -> ()
// CHECK-LABEL: func @reduce(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>)
//       CHECK:   layout.reduce sum %[[X]] dims [1, 2] keepdim : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>> -> !layout.tensor<2x1x1xf32>
//       CHECK:   layout.reduce mean %[[X]] dims [-1] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>> -> !layout.tensor<2x3xf32>
//       CHECK:   layout.reduce prod %[[X]] dims [1] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>> -> !layout.tensor<2x4xf32>
//       CHECK:   layout.reduce amax %[[X]] dims [0] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>> -> !layout.tensor<3x4xf32>
//       CHECK:   layout.reduce amin %[[X]] dims [0, 2] keepdim : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>> -> !layout.tensor<1x3x1xf32>
//       CHECK:   layout.reduce argmax %[[X]] dims [1] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>> -> !layout.tensor<2x4xi64>
//       CHECK:   layout.reduce argmin %[[X]] dims [] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>> -> !layout.tensor<i64>
//       CHECK:   layout.reduce argmax %[[X]] dims [] keepdim : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>> -> !layout.tensor<1x1x1xi64>
//       CHECK:   layout.reduce sum %[[X]] dims [] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>> -> !layout.tensor<f32>
func.func @reduce(%x: !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>) {
  %0 = layout.reduce sum %x dims [1, 2] keepdim : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %1 = layout.reduce mean %x dims [-1] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %2 = layout.reduce prod %x dims [1] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %3 = layout.reduce amax %x dims [0] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %4 = layout.reduce amin %x dims [0, 2] keepdim : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %5 = layout.reduce argmax %x dims [1] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %6 = layout.reduce argmin %x dims [] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %7 = layout.reduce argmax %x dims [] keepdim : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  %8 = layout.reduce sum %x dims [] : !layout.tensor<2x3x4xf32, strided<[1, 2, 6]>>
  return
}

// Result dtypes: integer (and bool) sum/prod give i64; f16/bf16 sum keep
// their dtype; amax keeps the dtype; mean of f16 is f16.
// torch: int32.sum(1) int64; int8.prod(1) int64; uint8.sum(0) int64; bool.sum(0) int64;
//        f16.sum(1) f16; bf16.sum(0) bf16; int32.amax(0) int32; f16.mean(0) f16
// CHECK-LABEL: func @reduce_dtypes(
//       CHECK:   layout.reduce sum %{{.*}} dims [1] : !layout.tensor<2x3xi32> -> !layout.tensor<2xi64>
//       CHECK:   layout.reduce prod %{{.*}} dims [1] : !layout.tensor<2x3xi8> -> !layout.tensor<2xi64>
//       CHECK:   layout.reduce sum %{{.*}} dims [0] : !layout.tensor<2x3xui8> -> !layout.tensor<3xi64>
//       CHECK:   layout.reduce sum %{{.*}} dims [0] : !layout.tensor<2x3xi1> -> !layout.tensor<3xi64>
//       CHECK:   layout.reduce sum %{{.*}} dims [1] : !layout.tensor<2x3xf16> -> !layout.tensor<2xf16>
//       CHECK:   layout.reduce sum %{{.*}} dims [0] : !layout.tensor<2x3xbf16> -> !layout.tensor<3xbf16>
//       CHECK:   layout.reduce amax %{{.*}} dims [0] : !layout.tensor<2x3xi32> -> !layout.tensor<3xi32>
//       CHECK:   layout.reduce mean %{{.*}} dims [0] : !layout.tensor<2x3xf16> -> !layout.tensor<3xf16>
func.func @reduce_dtypes(%i: !layout.tensor<2x3xi32>, %b: !layout.tensor<2x3xi8>, %u: !layout.tensor<2x3xui8>,
                         %p: !layout.tensor<2x3xi1>, %h: !layout.tensor<2x3xf16>, %g: !layout.tensor<2x3xbf16>) {
  %0 = layout.reduce sum %i dims [1] : !layout.tensor<2x3xi32>
  %1 = layout.reduce prod %b dims [1] : !layout.tensor<2x3xi8>
  %2 = layout.reduce sum %u dims [0] : !layout.tensor<2x3xui8>
  %3 = layout.reduce sum %p dims [0] : !layout.tensor<2x3xi1>
  %4 = layout.reduce sum %h dims [1] : !layout.tensor<2x3xf16>
  %5 = layout.reduce sum %g dims [0] : !layout.tensor<2x3xbf16>
  %6 = layout.reduce amax %i dims [0] : !layout.tensor<2x3xi32>
  %7 = layout.reduce mean %h dims [0] : !layout.tensor<2x3xf16>
  return
}

//===----------------------------------------------------------------------===//
// materialize
//===----------------------------------------------------------------------===//

// The copy layout-plan-copies inserts: any strided operand into a dense,
// offset-0 result of the same sizes, possibly of another dtype.
// CHECK-LABEL: func @materialize(
//  CHECK-SAME:     %[[X:.*]]: !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>)
//       CHECK:   %[[M:.*]] = layout.materialize %[[X]] {origin = "layout.contiguous", reason = "operand strides [1, 4] are not row-major"} : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>> -> !layout.tensor<4x3xf32>
//       CHECK:   %[[N:.*]] = layout.materialize %[[X]] {origin = "layout.to", reason = "dtype"} : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>> -> !layout.tensor<4x3xf16, strided<[1, 4]>>
//       CHECK:   return %[[M]], %[[N]]
func.func @materialize(%x: !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>>) -> (!layout.tensor<4x3xf32>, !layout.tensor<4x3xf16, strided<[1, 4]>>) {
  %m = layout.materialize %x {origin = "layout.contiguous", reason = "operand strides [1, 4] are not row-major"}
       : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>> -> !layout.tensor<4x3xf32>
  %n = layout.materialize %x {origin = "layout.to", reason = "dtype"}
       : !layout.tensor<4x3xf32, strided<[1, 4], offset: 2>> -> !layout.tensor<4x3xf16, strided<[1, 4]>>
  return %m, %n : !layout.tensor<4x3xf32>, !layout.tensor<4x3xf16, strided<[1, 4]>>
}

//===----------------------------------------------------------------------===//
// Declared result types
//===----------------------------------------------------------------------===//

// An explicit `-> type` equal to the inferred type is accepted on every
// inferred op, written in any spelling of that type.
// CHECK-LABEL: func @declared_types(
//       CHECK:   layout.permute %{{.*}} [1, 0] : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[1, 4]>>
//       CHECK:   layout.contiguous %{{.*}} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32>
//       CHECK:   layout.split %{{.*}} dim 1 [2, 2] : !layout.tensor<3x4xf32> -> !layout.tensor<3x2xf32, strided<[4, 1]>>, !layout.tensor<3x2xf32, strided<[4, 1], offset: 2>>
//       CHECK:   layout.reduce sum %{{.*}} dims [0] : !layout.tensor<3x4xi16> -> !layout.tensor<4xi64>
func.func @declared_types(%x: !layout.tensor<3x4xf32>, %i: !layout.tensor<3x4xi16>) {
  %p = layout.permute %x [1, 0] : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[1, 4], offset: 0>>
  %c = layout.contiguous %p : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32, strided<[3, 1]>>
  %a, %b = layout.split %x dim 1 [2, 2] : !layout.tensor<3x4xf32> -> !layout.tensor<3x2xf32, strided<[4, 1]>>, !layout.tensor<3x2xf32, strided<[4, 1], offset: 2>>
  %r = layout.reduce sum %i dims [0] : !layout.tensor<3x4xi16> -> !layout.tensor<4xi64>
  return
}

// An argument may carry its name for generated entry points.
// CHECK-LABEL: func.func @named_argument
// CHECK-SAME: {layout.name = "x"}
func.func @named_argument(%arg0: !layout.tensor<4xf32> {layout.name = "x"}) {
  return
}

// A scalar's dim 0 (or -1) is valid and names no size: amax/argmax of a
// scalar need no elements check (torch.tensor(1).amax(0)).
// CHECK-LABEL: func.func @scalar_reductions
// CHECK: layout.reduce amax %{{.*}} dims [0] : !layout.tensor<i8> -> !layout.tensor<i8>
// CHECK: layout.reduce argmax %{{.*}} dims [-1] : !layout.tensor<i8> -> !layout.tensor<i64>
func.func @scalar_reductions(%x: !layout.tensor<i8>, %y: !layout.tensor<?xi8>) {
  %a = layout.reduce amax %x dims [0] : !layout.tensor<i8>
  %v = layout.select %y dim 0 index 0 : !layout.tensor<?xi8>
  %b = layout.reduce argmax %v dims [-1] : !layout.tensor<i8>
  return
}
