//===- Overlap.h - Overlap of views -----------------------------*- C++ -*-===//
//
// Whether a view reads a storage element at two indices, and how two views
// of one storage relate: cheap proofs first, exact answers by enumerating
// the storage offsets of views up to a size limit.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_OVERLAP_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_OVERLAP_H

#include "layout/Dialect/Layout/Utils/StridedLayout.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir {
namespace layout {

/// The cheap proof that no storage element appears at two logical indices,
/// the one layout_rt's lrt_check_no_overlap applies at run time: sorted by
/// |stride|, each dim of size > 1 steps past everything the smaller ones
/// reach. False does not mean overlap (sizes [2, 3], strides [3, 2] are
/// distinct but do not nest).
bool stridesNest(const StridedLayout &layout);

/// Calls `visit` with the storage offset of each of the first `numel`
/// elements of `layout` in index order (the last dim fastest), until it
/// returns true; returns whether it did. One stride added per element. The
/// caller bounds `numel` and checks that every offset fits in int64_t
/// (span).
bool anyStorageOffset(const StridedLayout &layout, int64_t numel,
                      llvm::function_ref<bool(int64_t)> visit);

enum class Overlap { No, Yes, Unknown };
/// Does some storage element appear at two logical indices? Exact for
/// layouts up to `enumerationLimit` elements, else Unknown when the cheap
/// proofs do not decide.
Overlap internalOverlap(const StridedLayout &layout,
                        int64_t enumerationLimit = int64_t(1) << 22);

enum class OverlapStatus { No, Full, Partial, Unknown };
/// How two views of the same storage relate: Full when they are the same
/// view, No when they share no element, Partial when they share some.
OverlapStatus overlapStatus(const StridedLayout &a, const StridedLayout &b,
                            int64_t enumerationLimit = int64_t(1) << 22);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_OVERLAP_H
