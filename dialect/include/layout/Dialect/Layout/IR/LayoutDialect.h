//===- LayoutDialect.h - The layout dialect ---------------------*- C++ -*-===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "layout/Dialect/Layout/IR/LayoutOpsDialect.h.inc"

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
