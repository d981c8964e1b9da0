//===- LayoutDialect.cpp - The layout dialect -----------------------------===//

#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypes.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::layout;

#include "layout/Dialect/Layout/IR/LayoutOpsDialect.cpp.inc"

void LayoutDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "layout/Dialect/Layout/IR/LayoutOps.cpp.inc"
      >();
}
