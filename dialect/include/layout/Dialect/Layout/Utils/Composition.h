//===- Composition.h - Composition of views through a buffer ----*- C++ -*-===//
//
// A view of a materialized copy restated, where possible, as one strided
// view of the copy's source, so that the copy need not run.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_COMPOSITION_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_COMPOSITION_H

#include "layout/Dialect/Layout/Utils/StridedLayout.h"

namespace mlir {
namespace layout {

/// Composition of views through a materialized buffer. `source` is the view
/// that was copied into a new storage with the dense layout `buffer` (same
/// sizes as source, offset 0, non-overlapping and dense); `outer` is a view
/// of that new storage. Returns a single strided view of source's storage
/// that reads exactly the elements `outer` reads, or nullopt. Exact (nullopt
/// only when no such layout exists) for non-empty outer views of up to 2^16
/// elements; larger ones get a sufficient, carry-free proof; empty outer
/// views give nullopt.
std::optional<StridedLayout> composeThroughBuffer(const StridedLayout &source,
                                                  const StridedLayout &buffer,
                                                  const StridedLayout &outer);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_COMPOSITION_H
