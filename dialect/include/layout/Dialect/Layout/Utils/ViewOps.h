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
/// at::detail::computeStride: strides for viewing (oldSizes, oldStrides) as
/// newSizes without a copy, or nullopt when impossible.
std::optional<Dims> computeStride(llvm::ArrayRef<int64_t> oldSizes,
                                  llvm::ArrayRef<int64_t> oldStrides,
                                  llvm::ArrayRef<int64_t> newSizes);
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
Fallible<StridedLayout> permute(const StridedLayout &in,
                                llvm::ArrayRef<int64_t> dims);
Fallible<StridedLayout> transpose(const StridedLayout &in, int64_t dim0,
                                  int64_t dim1);
Fallible<StridedLayout> movedim(const StridedLayout &in, int64_t source,
                                int64_t destination);
/// Python slicing t[..., start:end:step] on `dim`; omitted bounds are
/// nullopt. Negatives wrap, bounds clamp, step must be > 0.
Fallible<StridedLayout> slice(const StridedLayout &in, int64_t dim,
                              std::optional<int64_t> start,
                              std::optional<int64_t> end, int64_t step);
Fallible<StridedLayout> select(const StridedLayout &in, int64_t dim,
                               int64_t index);
Fallible<StridedLayout> narrow(const StridedLayout &in, int64_t dim,
                               int64_t start, int64_t length);
Fallible<StridedLayout> expand(const StridedLayout &in,
                               llvm::ArrayRef<int64_t> sizes);
/// squeeze(): all size-1 dims when `dims` is empty; otherwise each listed
/// dim that has size 1 (PyTorch 2.x tuple semantics; 1.13 accepts one dim).
Fallible<StridedLayout> squeeze(const StridedLayout &in,
                                llvm::ArrayRef<int64_t> dims);
Fallible<StridedLayout> unsqueeze(const StridedLayout &in, int64_t dim);
Fallible<StridedLayout> unflatten(const StridedLayout &in, int64_t dim,
                                  llvm::ArrayRef<int64_t> sizes);
Fallible<StridedLayout> diagonal(const StridedLayout &in, int64_t offset,
                                 int64_t dim1, int64_t dim2);
Fallible<StridedLayout> unfold(const StridedLayout &in, int64_t dim,
                               int64_t size, int64_t step);
/// (ext) NumPy-style flip view: negated strides, offset moved to the last
/// element along each flipped dim. Repeated dims are an error.
Fallible<StridedLayout> flip(const StridedLayout &in,
                             llvm::ArrayRef<int64_t> dims);
/// split_with_sizes.
Fallible<llvm::SmallVector<StridedLayout, 4>>
split(const StridedLayout &in, int64_t dim, llvm::ArrayRef<int64_t> sizes);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_VIEWOPS_H
