//===- PlanAttr.h - Kernel plans as #layout.plan attributes -----*- C++ -*-===//
//
// The one schema of `#layout.plan`: layout-plan-kernels writes a KernelPlan
// into the attribute, and the backends and `--emit=explain` read it back
// (docs/internals/planner.md names every key).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_PLAN_PLANATTR_H
#define LAYOUT_COMPILER_PLAN_PLANATTR_H

#include "layout/Compiler/Plan/KernelPlan.h"
#include "layout/Dialect/Layout/IR/LayoutAttrs.h"

#include "mlir/IR/Operation.h"

namespace mlir {
namespace layout {

/// `plan` as a #layout.plan.
PlanAttr encodePlan(MLIRContext *context, const KernelPlan &plan);

/// The plan `op` carries (its `layout.plan` attribute). Fails with an error
/// at `op` when it has none (layout-plan-kernels has not run, or the op's
/// layouts are dynamic) or the attribute lacks a key.
FailureOr<KernelPlan> decodePlan(Operation *op);

/// decodePlan, or nullopt without a diagnostic when `op` has no plan.
std::optional<KernelPlan> lookupPlan(Operation *op);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_PLAN_PLANATTR_H
