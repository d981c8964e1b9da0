//===- LayoutDialect.h - The layout dialect ---------------------*- C++ -*-===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "layout/Dialect/Layout/IR/LayoutOpsDialect.h.inc"

#include <string>

namespace mlir {
namespace layout {

/// The function argument attribute naming an argument in generated entry
/// points and their messages: layoutc sets it from the argument's SSA name
/// (`%x` -> "x"), which MLIR does not keep; a program may also write it.
constexpr llvm::StringLiteral kArgNameAttr = "layout.name";

/// The registered op of the layout dialect whose name is closest to `name`
/// ("layout.contigous" -> "layout.contiguous"), or "" when none is within a
/// third of the name's length in edits.
std::string closestOpName(MLIRContext *context, llvm::StringRef name);

/// "file:line:col" of a location (the first known one of a fused location),
/// "unknown" when it has none: how messages and reports name an op.
std::string formatLocation(Location loc);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
