//===- KernelPlanTest.h - Helpers of the kernel planner's tests -*- C++ -*-===//
//
// Builders of the layouts and plans the planner's tests check, shared by the
// copy (KernelPlanTest.cpp) and reduction (ReducePlanTest.cpp) tests.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TEST_UNIT_KERNELPLANTEST_H
#define LAYOUT_TEST_UNIT_KERNELPLANTEST_H

#include "layout/Compiler/Plan/KernelPlan.h"

#include "gtest/gtest.h"

#include <ostream>
#include <vector>

using namespace mlir::layout;

namespace kernel_plan_test {

using Loops = std::vector<KernelLoop>;

inline StridedLayout rowMajor(llvm::ArrayRef<int64_t> sizes) {
  return StridedLayout(sizes, *contiguousStrides(sizes));
}

/// x.permute(perm).contiguous() for a row-major x of `sizes`.
inline KernelPlan permuteCopy(llvm::ArrayRef<int64_t> sizes,
                              llvm::ArrayRef<int64_t> perm, int64_t bytes,
                              int64_t dstBytes = 0,
                              const TargetInfo &target = {}) {
  StridedLayout src = *permute(rowMajor(sizes), perm);
  Fallible<KernelPlan> plan = planCopy(src, rowMajor(src.sizes), bytes,
                                       dstBytes ? dstBytes : bytes, target);
  EXPECT_TRUE(plan.ok()) << (plan ? "" : plan.message());
  return plan ? *plan : KernelPlan();
}

inline KernelPlan reduce(const StridedLayout &in, llvm::ArrayRef<int64_t> dims,
                         ReductionKind kind, ElementInfo element,
                         const TargetInfo &target = {}) {
  Fallible<KernelPlan> plan = planReduction(in, dims, kind, element, target);
  EXPECT_TRUE(plan.ok()) << (plan ? "" : plan.message());
  return plan ? *plan : KernelPlan();
}

inline Loops loopsOf(const KernelPlan &p) {
  return {p.loops.begin(), p.loops.end()};
}
inline std::vector<int64_t> tileOf(const KernelPlan &p) {
  return {p.tile.begin(), p.tile.end()};
}

inline const ElementInfo f32{"f32", 4, true}, f16{"f16", 2, true},
    bf16{"bf16", 2, true}, f64{"f64", 8, true}, i32{"i32", 4, false},
    i8{"i8", 1, false};

} // namespace kernel_plan_test

namespace mlir {
namespace layout {
inline void PrintTo(const StridedLayout &l, std::ostream *os) {
  *os << l.str();
}
inline void PrintTo(const KernelLoop &l, std::ostream *os) {
  *os << "{" << l.size << ", " << l.srcStride << ", " << l.dstStride
      << (l.reduced ? ", reduced}" : "}");
}
} // namespace layout
} // namespace mlir

using namespace kernel_plan_test;

#endif // LAYOUT_TEST_UNIT_KERNELPLANTEST_H
