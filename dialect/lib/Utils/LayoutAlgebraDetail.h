//===- LayoutAlgebraDetail.h - Shared helpers of the algebra ----*- C++ -*-===//
//
// Internal to dialect/lib/Utils: what more than one file of the layout
// algebra needs and its users should not see.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LIB_UTILS_LAYOUTALGEBRADETAIL_H
#define LAYOUT_DIALECT_LIB_UTILS_LAYOUTALGEBRADETAIL_H

#include "layout/Dialect/Layout/Utils/StridedLayout.h"

namespace mlir {
namespace layout {
namespace detail {

/// The error "integer overflow: <what> does not fit in a signed 64-bit
/// integer".
Failure overflow(llvm::StringRef what);

} // namespace detail
} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LIB_UTILS_LAYOUTALGEBRADETAIL_H
