//===- ReducePlanTest.cpp - Reduction planning
//-----------------------------===//
//
// The reduction cases of the benchmark suite planned for the reference
// target: inner and outer reductions, their thread splits and partials,
// accumulators, and the edges.
//
//===----------------------------------------------------------------------===//

#include "KernelPlanTest.h"

TEST(KernelPlan, R1SumInner) {
  KernelPlan p = reduce(rowMajor({16384, 1024}), {1}, ReductionKind::Sum, f32);
  EXPECT_EQ(p.strategy, KernelStrategy::ReduceInner);
  EXPECT_EQ(loopsOf(p), (Loops{{16384, 1024, 1}, {1024, 1, 0, true}}));
  EXPECT_EQ(p.accumulator, "f32");
  EXPECT_FALSE(p.convert);
  EXPECT_EQ(p.vectorWidth, 8);
  EXPECT_EQ(p.parallelLoop, 0);
  EXPECT_EQ(p.chunks, 16);
  EXPECT_FALSE(p.streamingStores);
  EXPECT_TRUE(p.index32);
}

TEST(KernelPlan, R2SumOuter) {
  KernelPlan p = reduce(rowMajor({16384, 1024}), {0}, ReductionKind::Sum, f32);
  EXPECT_EQ(p.strategy, KernelStrategy::ReduceOuter);
  EXPECT_EQ(loopsOf(p), (Loops{{16384, 1024, 0, true}, {1024, 1, 1}}));
  // Threads split the rows: each chunk reads its rows in order into its own
  // set of 1024 partial sums (splitting the columns would make every chunk
  // stride over all rows).
  EXPECT_EQ(p.parallelLoop, 0);
  EXPECT_EQ(p.chunks, 16);
}

TEST(KernelPlan, OuterReductionSplitsColumnsWhenPartialsAreTooLarge) {
  // Partial sets may take 1/256 of the bytes read: 1 MiB for [64, 1M] f32,
  // and one set is 4 MiB, so the kept columns are split instead.
  KernelPlan p = reduce(rowMajor({64, 1 << 20}), {0}, ReductionKind::Sum, f32);
  EXPECT_EQ(p.strategy, KernelStrategy::ReduceOuter);
  EXPECT_EQ(p.parallelLoop, 1);
  EXPECT_EQ(p.chunks, 16);
  // [4096, 16384]: 256 MiB read, 1 MiB of partials: 16 sets of 64 KiB.
  KernelPlan q = reduce(rowMajor({4096, 16384}), {0}, ReductionKind::Sum, f32);
  EXPECT_EQ(q.parallelLoop, 0);
  EXPECT_EQ(q.chunks, 16);
  // [1024, 16384]: 64 MiB read, 256 KiB of partials: 4 sets of 64 KiB.
  KernelPlan r = reduce(rowMajor({1024, 16384}), {0}, ReductionKind::Sum, f32);
  EXPECT_EQ(r.parallelLoop, 0);
  EXPECT_EQ(r.chunks, 4);
}

TEST(KernelPlan, ArgReductionsAreNotSplitIntoPartials) {
  KernelPlan p =
      reduce(rowMajor({16384, 1024}), {0}, ReductionKind::Argmax, f32);
  EXPECT_NE(p.parallelLoop, std::optional<int64_t>(0));
}

TEST(KernelPlan, R3SumSpatial) {
  KernelPlan p =
      reduce(rowMajor({64, 256, 32, 32}), {2, 3}, ReductionKind::Sum, f32);
  EXPECT_EQ(p.strategy, KernelStrategy::ReduceInner);
  EXPECT_EQ(loopsOf(p), (Loops{{16384, 1024, 1}, {1024, 1, 0, true}}));
}

TEST(KernelPlan, R4AmaxOfTransposedView) {
  StridedLayout xt = *transpose(rowMajor({4096, 4096}), 0, 1);
  KernelPlan p = reduce(xt, {1}, ReductionKind::Amax, f32);
  // x.T's dim 1 is x's rows: reduced outside, outputs contiguous inside.
  EXPECT_EQ(p.strategy, KernelStrategy::ReduceOuter);
  EXPECT_EQ(loopsOf(p), (Loops{{4096, 4096, 0, true}, {4096, 1, 1}}));
  EXPECT_EQ(p.accumulator, "f32");
  EXPECT_EQ(p.parallelLoop, 0);
  EXPECT_EQ(p.chunks, 16);
}

TEST(KernelPlan, R5HalfSumOfAll) {
  KernelPlan p = reduce(rowMajor({8192, 8192}), {}, ReductionKind::Sum, f16);
  EXPECT_EQ(p.strategy, KernelStrategy::ReduceInner);
  EXPECT_EQ(loopsOf(p), (Loops{{67108864, 1, 0, true}}));
  EXPECT_EQ(p.accumulator, "f32");
  EXPECT_TRUE(p.convert);
  EXPECT_EQ(p.srcElementBytes, 2);
  EXPECT_EQ(p.dstElementBytes, 2);
  // f32 partials: 8 per vector, not 16.
  EXPECT_EQ(p.vectorWidth, 8);
  // Nothing is kept, so the reduction itself is split.
  EXPECT_EQ(p.parallelLoop, 0);
  EXPECT_EQ(p.chunks, 16);
}

TEST(KernelPlan, Accumulators) {
  StridedLayout l = rowMajor({8, 8});
  EXPECT_EQ(reduce(l, {1}, ReductionKind::Sum, bf16).accumulator, "f32");
  EXPECT_EQ(reduce(l, {1}, ReductionKind::Mean, f64).accumulator, "f64");
  KernelPlan isum = reduce(l, {1}, ReductionKind::Sum, i32);
  EXPECT_EQ(isum.accumulator, "i64");
  EXPECT_EQ(isum.dstElementBytes, 8);
  EXPECT_EQ(reduce(l, {1}, ReductionKind::Prod, i8).accumulator, "i64");
  KernelPlan imax = reduce(l, {1}, ReductionKind::Amax, i8);
  EXPECT_EQ(imax.accumulator, "i8");
  EXPECT_FALSE(imax.convert);
  EXPECT_EQ(imax.vectorWidth, 32);
  EXPECT_EQ(reduce(l, {1}, ReductionKind::Amin, f16).accumulator, "f16");
  KernelPlan arg = reduce(l, {0}, ReductionKind::Argmax, f32);
  EXPECT_EQ(arg.accumulator, "f32");
  EXPECT_EQ(arg.dstElementBytes, 8);
}

TEST(KernelPlan, ReductionEdges) {
  // Negative dims wrap; a flipped input keeps its reversed strides.
  KernelPlan flipped =
      reduce(*flip(rowMajor({4, 6}), {1}), {-1}, ReductionKind::Sum, f32);
  EXPECT_EQ(loopsOf(flipped), (Loops{{4, 6, 1}, {6, -1, 0, true}}));
  // Size-1 reduced dims vanish; the kept ones still coalesce.
  KernelPlan ones = reduce(rowMajor({3, 1, 4}), {1}, ReductionKind::Sum, f32);
  EXPECT_EQ(loopsOf(ones), (Loops{{12, 1, 1}}));
  // An empty input: one empty loop, nothing to split.
  KernelPlan empty = reduce(rowMajor({0, 4}), {1}, ReductionKind::Sum, f32);
  EXPECT_EQ(loopsOf(empty), (Loops{{0, 1, 1}}));
  EXPECT_EQ(empty.chunks, 1);
  // One element: a trivial inner reduction.
  KernelPlan one = reduce(rowMajor({1, 1}), {}, ReductionKind::Sum, f32);
  EXPECT_EQ(loopsOf(one), (Loops{{1, 1, 0, true}}));
  EXPECT_EQ(one.strategy, KernelStrategy::ReduceInner);
  // A reduced size-1 dim leaves a kept loop only.
  KernelPlan kept = reduce(rowMajor({5, 1}), {1}, ReductionKind::Sum, f32);
  EXPECT_EQ(loopsOf(kept), (Loops{{5, 1, 1}}));
  EXPECT_EQ(kept.strategy, KernelStrategy::ReduceOuter);
  // Small reductions stay on one thread.
  KernelPlan small = reduce(rowMajor({64, 63}), {1}, ReductionKind::Sum, f32);
  EXPECT_EQ(small.chunks, 1);
  EXPECT_FALSE(small.parallelLoop);
}
