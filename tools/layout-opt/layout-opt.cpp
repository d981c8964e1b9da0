//===- layout-opt.cpp - mlir-opt with the layout dialect and passes -------===//

#include "layout/Compiler/Plan/Passes.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::layout::registerLayoutDialects(registry);
  mlir::layout::registerLayoutPasses();
  mlir::layout::registerLayoutPlanPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "layout-opt: the layout dialect's passes\n", registry));
}
