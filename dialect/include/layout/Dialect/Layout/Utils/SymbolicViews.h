//===- SymbolicViews.h - PyTorch's view rules on symbolic layouts -*- C++ -*-=//
//
// The view ops of ViewOps.h and the result layouts of CopyingOps.h over
// symbolic layouts (Symbolic.h). Each function takes the program's
// SymTable, adds the symbols its result needs and the checks PyTorch
// makes on values, and returns the result or the error PyTorch gives when
// the check fails for every assignment. With all sizes constant each
// agrees with its static counterpart; LayoutAlgebraTest checks that every
// one agrees with it at concrete sizes.
//
// Op parameters (dims, slice bounds, target shapes) are static. Where the
// result's *rank* would depend on a run-time size (squeeze of a dynamic
// dim) the op is an error. Where whether a view is possible would (view,
// reshape and flatten of dims the algebra cannot prove mergeable), PyTorch's
// computeStride runs at run time (SymTable::viewStrides): view checks its
// answer, reshape and flatten copy when it finds no view.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_SYMBOLICVIEWS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_SYMBOLICVIEWS_H

#include "layout/Dialect/Layout/Utils/MemoryFormat.h"
#include "layout/Dialect/Layout/Utils/Overlap.h"
#include "layout/Dialect/Layout/Utils/Symbolic.h"

namespace mlir {
namespace layout {

/// The symbolic layout of a function argument whose type has layout
/// `declared`: a dynamic size becomes the input symbol "<name>[k]"; when the
/// declared strides are the row-major strides of the declared sizes with
/// offset 0 (the form a type prints without a layout), the strides are the
/// row-major products of the sizes, else each dynamic stride is the input
/// symbol "<name>.stride[k]"; a dynamic offset is the input symbol
/// "<name>.offset" (>= 0).
Fallible<SymLayout> symbolicArgument(SymTable &table,
                                     const StridedLayout &declared,
                                     llvm::StringRef name);

/// Row-major strides of `sizes`: stride[k] = sizes[k+1] * ... * sizes[n-1].
llvm::SmallVector<SymExpr, 6> rowMajorStrides(llvm::ArrayRef<SymExpr> sizes);
/// Strides of a new tensor in `format` (not Preserve).
Fallible<llvm::SmallVector<SymExpr, 6>>
symbolicStridesForFormat(llvm::ArrayRef<SymExpr> sizes, MemoryFormat format);
/// Whether `l` is non-overlapping and dense for every size: its dims chain
/// from a stride-1 dim outwards, each stride the product of the sizes and
/// stride inside it (a permutation of a row-major layout). Size-1 dims keep
/// the chain whatever their stride, as PyTorch's check skips them; a chain
/// through every dim holds for those sizes too.
bool provablyDense(const SymTable &t, const SymLayout &l);
/// overlapStatus (Overlap.h) for every size: Full when the two views are the
/// same, No when both are provably dense (each then spans [offset, offset +
/// numel)) and those ranges provably do not meet; Unknown otherwise.
OverlapStatus symbolicOverlapStatus(const SymTable &t, const SymLayout &a,
                                    const SymLayout &b);
/// is_contiguous(format) as a condition (an empty tensor is contiguous; size-1
/// dims are skipped).
SymCond isContiguousIn(const SymLayout &l, MemoryFormat format);

Fallible<SymLayout> permute(SymTable &t, const SymLayout &in,
                            llvm::ArrayRef<int64_t> dims);
Fallible<SymLayout> transpose(SymTable &t, const SymLayout &in, int64_t dim0,
                              int64_t dim1);
Fallible<SymLayout> movedim(SymTable &t, const SymLayout &in, int64_t source,
                            int64_t destination);
Fallible<SymLayout> slice(SymTable &t, const SymLayout &in, int64_t dim,
                          std::optional<int64_t> start,
                          std::optional<int64_t> end, int64_t step);
Fallible<SymLayout> select(SymTable &t, const SymLayout &in, int64_t dim,
                           int64_t index);
Fallible<SymLayout> narrow(SymTable &t, const SymLayout &in, int64_t dim,
                           int64_t start, int64_t length);
Fallible<SymLayout> expand(SymTable &t, const SymLayout &in,
                           llvm::ArrayRef<int64_t> sizes);
Fallible<SymLayout> squeeze(SymTable &t, const SymLayout &in,
                            llvm::ArrayRef<int64_t> dims);
Fallible<SymLayout> unsqueeze(SymTable &t, const SymLayout &in, int64_t dim);
Fallible<SymLayout> unflatten(SymTable &t, const SymLayout &in, int64_t dim,
                              llvm::ArrayRef<int64_t> sizes);
Fallible<SymLayout> diagonal(SymTable &t, const SymLayout &in, int64_t offset,
                             int64_t dim1, int64_t dim2);
Fallible<SymLayout> unfold(SymTable &t, const SymLayout &in, int64_t dim,
                           int64_t size, int64_t step);
Fallible<SymLayout> flip(SymTable &t, const SymLayout &in,
                         llvm::ArrayRef<int64_t> dims);
Fallible<llvm::SmallVector<SymLayout, 4>> split(SymTable &t,
                                                const SymLayout &in,
                                                int64_t dim,
                                                llvm::ArrayRef<int64_t> sizes);
/// view(shape): where the algebra proves every dim of `in` mergeable into one
/// run (PyTorch's computeStride then needs no chunk boundary), the result's
/// strides are row-major times the innermost stride; elsewhere they are
/// computeStride's at run time, with a check that it finds them. The
/// element count is a run-time check, and -1 becomes the quotient.
Fallible<SymLayout> view(SymTable &t, const SymLayout &in,
                         llvm::ArrayRef<int64_t> shape);

/// An op whose result may be a view of the operand or a new storage: the
/// result layout (with Select symbols where it depends on `copies`), the
/// condition under which it copies, and the layout of the view it returns
/// where it does not copy (in the operand's storage; unused where it
/// always copies).
struct SymMaybeCopy {
  SymLayout layout;
  SymCond copies = SymCond::alwaysFalse();
  SymLayout view;
};
Fallible<SymMaybeCopy> reshape(SymTable &t, const SymLayout &in,
                               llvm::ArrayRef<int64_t> shape);
Fallible<SymMaybeCopy> flatten(SymTable &t, const SymLayout &in,
                               int64_t startDim, int64_t endDim);
Fallible<SymMaybeCopy> contiguous(SymTable &t, const SymLayout &in,
                                  MemoryFormat format);
/// clone(format): a new storage. Preserve needs an operand the algebra proves
/// contiguous (else it is an error that says so).
Fallible<SymLayout> cloneLayout(SymTable &t, const SymLayout &in,
                                MemoryFormat format);
/// copy_'s broadcast of `src` to `dstSizes`.
Fallible<SymLayout> broadcastTo(SymTable &t, const SymLayout &src,
                                llvm::ArrayRef<SymExpr> dstSizes);
/// A reduction's row-major result; amax/amin/argmax/argmin (`needsElements`)
/// check that every reduced dim is non-empty, with `name` in the message.
Fallible<SymLayout> reduceLayout(SymTable &t, const SymLayout &in,
                                 llvm::ArrayRef<int64_t> dims, bool keepdim,
                                 bool needsElements, llvm::StringRef name);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_SYMBOLICVIEWS_H
