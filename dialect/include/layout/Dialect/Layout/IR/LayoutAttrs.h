//===- LayoutAttrs.h - layout dialect attributes ----------------*- C++ -*-===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTATTRS_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTATTRS_H

#include "mlir/IR/BuiltinAttributes.h"

#define GET_ATTRDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutAttrs.h.inc"

namespace mlir {
namespace layout {
/// The discardable attribute that holds an op's #layout.plan.
constexpr llvm::StringLiteral kPlanAttrName = "layout.plan";
} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTATTRS_H
