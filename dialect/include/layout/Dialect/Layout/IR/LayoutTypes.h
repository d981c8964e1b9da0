//===- LayoutTypes.h - layout dialect types ---------------------*- C++ -*-===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTTYPES_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTTYPES_H

#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOpsTypes.h.inc"

namespace mlir {
namespace layout {
/// True for the element types of the language: i1, i8, i16, i32, i64, ui8,
/// f16, bf16, f32, f64.
bool isSupportedElementType(Type type);
/// "f32", "ui8", ... as the explain JSON spells dtypes.
std::string dtypeName(Type type);
} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTTYPES_H
