//===- PlanKernels.cpp - layout-plan-kernels ------------------------------===//
//
// Attaches `#layout.plan` to every op that moves data, planned for one
// target description.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Plan/Passes.h"
#include "layout/Compiler/Plan/PlanAttr.h"

#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTPLANKERNELSPASS
#include "layout/Compiler/Plan/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

ReductionKind mlir::layout::toReductionKind(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::sum:
    return ReductionKind::Sum;
  case ReduceKind::mean:
    return ReductionKind::Mean;
  case ReduceKind::prod:
    return ReductionKind::Prod;
  case ReduceKind::amax:
    return ReductionKind::Amax;
  case ReduceKind::amin:
    return ReductionKind::Amin;
  case ReduceKind::argmax:
    return ReductionKind::Argmax;
  case ReduceKind::argmin:
    return ReductionKind::Argmin;
  }
  llvm_unreachable("unknown reduce kind");
}

/// `dst = src` (same sizes): the dtype converts when the element types
/// differ, even at equal widths (f16 <-> bf16).
static Fallible<KernelPlan> planCopyOf(const StridedLayout &src,
                                       StridedTensorType srcType,
                                       StridedTensorType dstType,
                                       const TargetInfo &target) {
  return planCopy(src, dstType.getStridedLayout(), srcType.getElementBytes(),
                  dstType.getElementBytes(), target,
                  srcType.getElementType() != dstType.getElementType());
}

Fallible<KernelPlan> mlir::layout::planKernel(Operation *op,
                                              const TargetInfo &target) {
  if (auto m = dyn_cast<MaterializeOp>(op)) {
    StridedTensorType in = m.getInput().getType();
    return planCopyOf(in.getStridedLayout(), in, m.getType(), target);
  }
  if (auto c = dyn_cast<CopyOp>(op)) {
    StridedTensorType src = c.getSrc().getType(), dst = c.getDst().getType();
    // The source broadcasts to the destination's sizes (stride 0).
    Fallible<StridedLayout> read =
        broadcastTo(src.getStridedLayout(), dst.getShape());
    if (!read)
      return fail(read.message());
    return planCopyOf(*read, src, dst, target);
  }
  auto r = cast<ReduceOp>(op);
  StridedTensorType in = r.getInput().getType();
  Type element = in.getElementType();
  return planReduction(
      in.getStridedLayout(), r.getDims(), toReductionKind(r.getKind()),
      {dtypeName(element), in.getElementBytes(), isa<FloatType>(element)},
      target);
}

Fallible<KernelPlan> mlir::layout::planKernel(Operation *op,
                                              const TargetInfo &target,
                                              const Wisdom *wisdom,
                                              StringRef wisdomTarget) {
  Fallible<KernelPlan> plan = planKernel(op, target);
  if (!plan || !wisdom || isa<ReduceOp>(op))
    return plan;
  const WisdomEntry *entry = wisdom->lookup(wisdomTarget, shapeClass(*plan));
  if (!entry)
    return plan;
  Fallible<TargetInfo> tunedTarget = applyKnobs(target, entry->knobs);
  if (!tunedTarget)
    return fail("tuning file: " + tunedTarget.message());
  Fallible<KernelPlan> tuned = planKernel(op, *tunedTarget);
  if (!tuned)
    return tuned;
  KernelPlan out = std::move(tuned).value();
  out.tuned = entry->knobs;
  return out;
}

/// Whether every layout `op` reads or writes is static.
static bool hasStaticLayouts(Operation *op) {
  auto isStatic = [](Type t) {
    auto tensor = dyn_cast<StridedTensorType>(t);
    return !tensor || tensor.getStridedLayout().isStatic();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

namespace {
struct LayoutPlanKernelsPass
    : public layout::impl::LayoutPlanKernelsPassBase<LayoutPlanKernelsPass> {
  using Base::Base;
  LayoutPlanKernelsPass(const TargetInfo &target, const Wisdom *wisdom,
                        StringRef wisdomTarget)
      : fixedTarget(target), fixedWisdom(wisdom) {
    this->wisdomTarget = wisdomTarget.str();
  }

  LogicalResult initialize(MLIRContext *) override {
    // Options are parsed before any IR exists, so there is no location to
    // report a bad one at; the pass fails on its first function instead.
    if (fixedTarget) {
      resolved = *fixedTarget;
    } else {
      Fallible<TargetInfo> preset = lookupTarget(target);
      if (!preset) {
        error = preset.message();
        return success();
      }
      resolved = *preset;
    }
    if (fixedWisdom || wisdom.empty()) {
      activeWisdom = fixedWisdom;
      return success();
    }
    if (wisdomTarget.empty())
      wisdomTarget = resolved.name;
    Fallible<Wisdom> parsed = Wisdom::readFile(wisdom);
    if (!parsed) {
      error = parsed.message();
      return success();
    }
    loadedWisdom = std::move(parsed).value();
    activeWisdom = &*loadedWisdom;
    return success();
  }

  void runOnOperation() override {
    if (!error.empty()) {
      getOperation().emitError("layout-plan-kernels: ") << error;
      return signalPassFailure();
    }
    WalkResult walk = getOperation().walk([&](Operation *op) {
      if (!isa<MaterializeOp, CopyOp, ReduceOp>(op) || !hasStaticLayouts(op))
        return WalkResult::advance();
      Fallible<KernelPlan> plan =
          planKernel(op, resolved, activeWisdom, wisdomTarget);
      if (!plan) {
        op->emitError(plan.message());
        return WalkResult::interrupt();
      }
      op->setAttr(kPlanAttrName, encodePlan(op->getContext(), *plan));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }

  std::optional<TargetInfo> fixedTarget;
  const Wisdom *fixedWisdom = nullptr;
  std::optional<Wisdom> loadedWisdom;
  const Wisdom *activeWisdom = nullptr;
  TargetInfo resolved;
  std::string error;
};
} // namespace

std::unique_ptr<Pass> mlir::layout::createLayoutPlanKernelsPass(
    const TargetInfo &target, const Wisdom *wisdom, StringRef wisdomTarget) {
  return std::make_unique<LayoutPlanKernelsPass>(target, wisdom, wisdomTarget);
}

LogicalResult mlir::layout::planKernels(ModuleOp module,
                                        const TargetInfo &target,
                                        const Wisdom *wisdom,
                                        StringRef wisdomTarget) {
  PassManager pm(module.getContext());
  pm.addNestedPass<func::FuncOp>(
      createLayoutPlanKernelsPass(target, wisdom, wisdomTarget));
  return pm.run(module);
}
