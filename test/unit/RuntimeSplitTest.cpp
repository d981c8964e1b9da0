//===- RuntimeSplitTest.cpp - Split loops of run-time-extent kernels ------===//
//
// runtimeSplitLoops (KernelPlan.h): the loop a run-time-extent kernel's
// chunks split and a copy's fallback loop, for copies, transposes and
// reductions.
//
//===----------------------------------------------------------------------===//

#include "KernelPlanTest.h"

TEST(RuntimeSplit, Loops) {
  // A plan that splits a loop keeps it; a copy's fallback is the outermost
  // other loop chunks may split (not a transpose's b).
  KernelPlan p2 = permuteCopy({16, 64, 112, 112}, {0, 2, 3, 1}, 4);
  ASSERT_TRUE(p2.parallelLoop);
  RuntimeSplitLoops s = runtimeSplitLoops(p2, /*serial=*/false);
  EXPECT_EQ(s.loop, *p2.parallelLoop);
  EXPECT_EQ(s.loop, 0);
  EXPECT_EQ(s.fallback, 1);
  // Without a split in the plan (planned for a small shape): a
  // transpose's loop of largest source stride, here b, so a; with only a
  // and b there is no fallback.
  KernelPlan p1 = permuteCopy({4096, 4096}, {1, 0}, 4);
  p1.parallelLoop.reset();
  s = runtimeSplitLoops(p1, /*serial=*/false);
  EXPECT_EQ(s.loop, p1.tiledLoops->first);
  EXPECT_EQ(s.fallback, -1);
  // Reductions: the reduced outermost loop (partials), else the first
  // kept loop; never a fallback. argmax/argmin split nothing.
  KernelPlan r;
  r.strategy = KernelStrategy::ReduceOuter;
  r.loops = {{64, 1024, 0, /*reduced=*/true}, {1024, 1, 1}};
  s = runtimeSplitLoops(r, /*serial=*/false);
  EXPECT_EQ(s.loop, 0);
  EXPECT_EQ(s.fallback, -1);
  r.strategy = KernelStrategy::ReduceInner;
  r.loops = {{1024, 64, 1}, {64, 1, 0, /*reduced=*/true}};
  EXPECT_EQ(runtimeSplitLoops(r, /*serial=*/false).loop, 0);
  s = runtimeSplitLoops(r, /*serial=*/true);
  EXPECT_EQ(s.loop, -1);
  EXPECT_EQ(s.fallback, -1);
  // A gather keeps its innermost loop whole.
  KernelPlan g;
  g.strategy = KernelStrategy::Gather;
  g.loops = {{1, 8192, 4096}, {4096, 2, 1}};
  s = runtimeSplitLoops(g, /*serial=*/false);
  EXPECT_EQ(s.loop, 0);
  EXPECT_EQ(s.fallback, -1);
}
