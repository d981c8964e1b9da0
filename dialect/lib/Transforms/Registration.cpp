//===- Registration.cpp - Dialects, passes and the layoutc pipeline -------===//

#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void mlir::layout::registerLayoutDialects(DialectRegistry &registry) {
  registry.insert<LayoutDialect, func::FuncDialect>();
}

void mlir::layout::buildLayoutPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createLayoutFoldViewsPass());
  pm.addNestedPass<func::FuncOp>(createLayoutPlanCopiesPass());
}
