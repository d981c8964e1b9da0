//===- ViewOps.h - PyTorch view ops on layouts ------------------*- C++ -*-===//
//
// The layout of every view op (as_strided, view, reshape, permute, slice,
// expand, ...) over the same storage, with PyTorch's shape inference and its
// errors.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_VIEWOPS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_VIEWOPS_H

#include "layout/Dialect/Layout/Utils/StridedLayout.h"

namespace mlir {
namespace layout {

//===----------------------------------------------------------------------===//
// View ops (aten/src/ATen/native/TensorShape.cpp). Each returns the view's
// layout over the same storage, or PyTorch's error.
//===----------------------------------------------------------------------===//

/// as_strided's own checks (sizes/strides length, negative sizes, negative
/// offset, overflow). Negative strides are accepted (ext: the folded form of
/// flip); bounds are checked separately with checkInBounds.
Fallible<StridedLayout> asStrided(llvm::ArrayRef<int64_t> sizes,
                                  llvm::ArrayRef<int64_t> strides,
                                  int64_t offset);
/// infer_size: resolves one -1 in `shape` for `numel` elements.
Fallible<Dims> inferSize(llvm::ArrayRef<int64_t> shape, int64_t numel);
/// PyTorch's error when computeStride finds no strides for a view.
inline constexpr const char *kViewIncompatible =
    "view size is not compatible with input tensor's size and stride (at "
    "least one dimension spans across two contiguous subspaces). Use "
    ".reshape(...) instead.";
/// at::detail::computeStride: strides for viewing (oldSizes, oldStrides) as
/// newSizes without a copy, or nullopt when impossible.
std::optional<Dims> computeStride(llvm::ArrayRef<int64_t> oldSizes,
                                  llvm::ArrayRef<int64_t> oldStrides,
                                  llvm::ArrayRef<int64_t> newSizes);
/// view(shape): the same elements in `shape` (one -1 inferred) without a
/// copy, or PyTorch's error when computeStride finds no strides:
/// (2, 3):(3, 1) viewed as (3, -1) is (3, 2):(2, 1).
Fallible<StridedLayout> view(const StridedLayout &in,
                             llvm::ArrayRef<int64_t> shape);
/// reshape/flatten: the view when computeStride succeeds (copies = false),
/// else the contiguous layout of a new storage (copies = true, offset 0).
struct MaybeCopy {
  StridedLayout layout;
  bool copies;
};
Fallible<MaybeCopy> reshape(const StridedLayout &in,
                            llvm::ArrayRef<int64_t> shape);
Fallible<MaybeCopy> flatten(const StridedLayout &in, int64_t startDim,
                            int64_t endDim);
/// Dim i of the result is dim dims[i] of `in`: (2, 3):(3, 1) permuted by
/// [1, 0] is (3, 2):(1, 3). Every dim exactly once.
Fallible<StridedLayout> permute(const StridedLayout &in,
                                llvm::ArrayRef<int64_t> dims);
/// Swaps dims dim0 and dim1 (a rank-0 layout stays as it is).
Fallible<StridedLayout> transpose(const StridedLayout &in, int64_t dim0,
                                  int64_t dim1);
/// Moves dim `source` to position `destination`, the others keeping their
/// order: (2, 3, 4):(12, 4, 1) with 0 -> 2 is (3, 4, 2):(4, 1, 12).
Fallible<StridedLayout> movedim(const StridedLayout &in, int64_t source,
                                int64_t destination);
/// Python slicing t[..., start:end:step] on `dim`; omitted bounds are
/// nullopt. Negatives wrap, bounds clamp, step must be > 0.
Fallible<StridedLayout> slice(const StridedLayout &in, int64_t dim,
                              std::optional<int64_t> start,
                              std::optional<int64_t> end, int64_t step);
/// Drops dim `dim` at `index` (negatives count from the end):
/// (2, 3):(3, 1)+0 at dim 0, index 1 is (3):(1)+3.
Fallible<StridedLayout> select(const StridedLayout &in, int64_t dim,
                               int64_t index);
/// slice(dim, start, start + length) with narrow's checks; `start` may
/// equal the size (an empty narrow at the end).
Fallible<StridedLayout> narrow(const StridedLayout &in, int64_t dim,
                               int64_t start, int64_t length);
/// Broadcasts size-1 and new leading dims to `sizes` with stride 0 (-1
/// keeps a size): (3, 1):(1, 1) expanded to (3, 4) is (3, 4):(1, 0).
Fallible<StridedLayout> expand(const StridedLayout &in,
                               llvm::ArrayRef<int64_t> sizes);
/// squeeze(): all size-1 dims when `dims` is empty; otherwise each listed
/// dim that has size 1 (PyTorch 2.x tuple semantics; 1.13 accepts one dim).
Fallible<StridedLayout> squeeze(const StridedLayout &in,
                                llvm::ArrayRef<int64_t> dims);
/// Inserts a size-1 dim at `dim`, with stride sizes[dim] * strides[dim] (1
/// at the end): (2, 3):(3, 1) at 1 is (2, 1, 3):(3, 3, 1).
Fallible<StridedLayout> unsqueeze(const StridedLayout &in, int64_t dim);
/// Splits dim `dim` into `sizes` (one -1 inferred) as a view:
/// (6):(1) with [2, 3] is (2, 3):(3, 1).
Fallible<StridedLayout> unflatten(const StridedLayout &in, int64_t dim,
                                  llvm::ArrayRef<int64_t> sizes);
/// Drops dims dim1 and dim2 and appends their diagonal (above the main one
/// for offset > 0), stride strides[dim1] + strides[dim2]: (3, 3):(3, 1)
/// gives (3):(4).
Fallible<StridedLayout> diagonal(const StridedLayout &in, int64_t offset,
                                 int64_t dim1, int64_t dim2);
/// Windows of `size` elements every `step` along `dim`: that dim becomes
/// (sizes[dim] - size) / step + 1 windows of stride step * strides[dim], and
/// a last dim of `size` keeps strides[dim]. (6):(1) with size 2, step 2 is
/// (3, 2):(2, 1).
Fallible<StridedLayout> unfold(const StridedLayout &in, int64_t dim,
                               int64_t size, int64_t step);
/// (ext) NumPy-style flip view: negated strides, offset moved to the last
/// element along each flipped dim. Repeated dims are an error.
Fallible<StridedLayout> flip(const StridedLayout &in,
                             llvm::ArrayRef<int64_t> dims);
/// split_with_sizes: narrow views of consecutive `sizes` along `dim`, which
/// must sum to its size: (5, 2):(2, 1) split [2, 3] on dim 0 is
/// (2, 2):(2, 1)+0 and (3, 2):(2, 1)+4.
Fallible<llvm::SmallVector<StridedLayout, 4>>
split(const StridedLayout &in, int64_t dim, llvm::ArrayRef<int64_t> sizes);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_VIEWOPS_H
