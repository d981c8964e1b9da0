//===- Passes.h - layoutc compiler passes -----------------------*- C++ -*-===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_H
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_H

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
class PassManager;
namespace layout {

#define GEN_PASS_DECL
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"

/// Rewrites every non-trivial view as one layout.as_strided of its root.
void populateFoldViewsPatterns(RewritePatternSet &patterns);

/// Registers the dialects layout programs use (layout, func).
void registerLayoutDialects(DialectRegistry &registry);

/// The pipeline `layoutc` runs: fold views, plan copies, fold again.
void buildLayoutPipeline(OpPassManager &pm);

/// registerLayoutPasses() registers every pass for layout-opt.
#define GEN_PASS_REGISTRATION
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_H
