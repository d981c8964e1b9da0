//===- Passes.h - Kernel planning passes ------------------------*- C++ -*-===//

#ifndef LAYOUT_COMPILER_PLAN_PASSES_H
#define LAYOUT_COMPILER_PLAN_PASSES_H

#include "layout/Compiler/Plan/KernelPlan.h"
#include "layout/Compiler/Plan/Wisdom.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace layout {

#define GEN_PASS_DECL
#include "layout/Compiler/Plan/Passes.h.inc"

/// layout-plan-kernels for a target description that is not a preset (the
/// one a CPU backend derives from its TargetMachine), with the entries of
/// `wisdom` under `wisdomTarget` where `wisdom` is given.
std::unique_ptr<Pass>
createLayoutPlanKernelsPass(const TargetInfo &target,
                            const Wisdom *wisdom = nullptr,
                            llvm::StringRef wisdomTarget = {});

/// Runs layout-plan-kernels for `target` (and `wisdom`'s entries under
/// `wisdomTarget`) on every function of `module` (after
/// layout-plan-copies); fails after a diagnostic.
LogicalResult planKernels(ModuleOp module, const TargetInfo &target,
                          const Wisdom *wisdom = nullptr,
                          llvm::StringRef wisdomTarget = {});

/// The plan of one materialize, copy or reduce op for `target`: the one
/// walk that turns ops into planner calls. Fails on a dynamic layout or
/// what the planner rejects.
Fallible<KernelPlan> planKernel(Operation *op, const TargetInfo &target);

/// planKernel, then for a copy whose shape class has an entry in `wisdom`
/// under `wisdomTarget`: the plan with the entry's knobs, recording them
/// (KernelPlan::tuned).
Fallible<KernelPlan> planKernel(Operation *op, const TargetInfo &target,
                                const Wisdom *wisdom,
                                llvm::StringRef wisdomTarget);

/// The planner's name for a reduce op's kind.
ReductionKind toReductionKind(ReduceKind kind);

#define GEN_PASS_REGISTRATION
#include "layout/Compiler/Plan/Passes.h.inc"

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_PLAN_PASSES_H
