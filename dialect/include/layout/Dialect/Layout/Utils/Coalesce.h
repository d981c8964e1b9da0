//===- Coalesce.h - Coalescing and copy classification ----------*- C++ -*-===//
//
// Merging dims that step through memory as one (TensorIterator's
// coalescing, alone, jointly or in another layout's memory order), and the
// kernel family a copy needs once both sides are coalesced.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_COALESCE_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_COALESCE_H

#include "layout/Dialect/Layout/Utils/StridedLayout.h"

namespace mlir {
namespace layout {

//===----------------------------------------------------------------------===//
// Analyses used by copy planning and kernel selection.
//===----------------------------------------------------------------------===//

/// Drops size-1 dims and merges adjacent dims i, i+1 when
/// strides[i] == sizes[i+1] * strides[i+1] (the merged dim keeps the order).
/// (4, 3, 2):(6, 2, 1) -> (24):(1). Empty tensors coalesce to (0):(1).
StridedLayout coalesce(const StridedLayout &layout);

/// Coalesces several same-shaped layouts jointly (TensorIterator's rule):
/// dims merge only when they merge in every layout. Returns the coalesced
/// layouts in the same order.
llvm::SmallVector<StridedLayout, 2>
coalesceJointly(llvm::ArrayRef<StridedLayout> layouts);

/// Reorders the dims of several same-shaped layouts by decreasing |stride| of
/// layouts[key] (stable, so ties keep their order), then coalesces them
/// jointly: the loop nest TensorIterator runs, outermost first, walking
/// layouts[key] in its memory order. Copies key on the destination.
llvm::SmallVector<StridedLayout, 2>
coalesceInOrderOf(llvm::ArrayRef<StridedLayout> layouts, size_t key);

/// The innermost dim whose stride is 1 or -1 (where a kernel moves whole
/// vectors), or -1 when there is none.
int64_t unitStrideDim(const StridedLayout &layout);

/// The kernel family a copy from `src` into a new or existing `dst` (same
/// sizes) needs, after ordering dims by dst's strides and coalescing both
/// jointly (TensorIterator's rule): "memcpy" (one contiguous run per side),
/// "transpose" (dst's stride-1 dim is not src's), "broadcast"
/// (src has stride-0 dims), "gather" (anything else strided, incl. negative
/// strides). `convert` (dtype change) prefixes "convert+".
enum class CopyFamily { Memcpy, Transpose, Gather, Broadcast };
CopyFamily copyFamily(const StridedLayout &src, const StridedLayout &dst);
llvm::StringRef stringifyCopyFamily(CopyFamily family);
/// copyFamily's name, prefixed with "convert+" when the dtype changes.
std::string classifyCopy(const StridedLayout &src, const StridedLayout &dst,
                         bool convert);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_COALESCE_H
