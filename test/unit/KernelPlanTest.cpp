//===- KernelPlanTest.cpp - Kernel planning over the bench cases ----------===//
//
// Each copy case of the benchmark suite (bench/cases.py, CPU cases) planned
// for the reference target, plus the edges: odd extents, size-0 and size-1
// dims, negative strides, the int32 index boundary, the thread split.
// Transpose tiling and streaming stores: TransposeTilingTest.cpp;
// reductions: ReducePlanTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "KernelPlanTest.h"

#include "llvm/Support/MathExtras.h"

TEST(KernelPlan, CoalesceInOrderOf) {
  // x.permute(2, 0, 1) of a row-major (2, 3, 4): walked in its own memory
  // order it is one dense run, though its dims are out of order.
  StridedLayout src({4, 2, 3}, {1, 12, 4});
  StridedLayout dst({4, 2, 3}, {1, 12, 4});
  llvm::SmallVector<StridedLayout, 2> c = coalesceInOrderOf({src, dst}, 1);
  EXPECT_EQ(c[0], StridedLayout({24}, {1}));
  EXPECT_EQ(c[1], StridedLayout({24}, {1}));
  // Keyed on the source, the destination's (2, 3) rows merge and its
  // stride-1 dim moves inside.
  c = coalesceInOrderOf({src, rowMajor({4, 2, 3})}, 0);
  EXPECT_EQ(c[0], StridedLayout({6, 4}, {4, 1}));
  EXPECT_EQ(c[1], StridedLayout({6, 4}, {1, 6}));
}

TEST(KernelPlan, P1Transpose2d) {
  KernelPlan p = permuteCopy({4096, 4096}, {1, 0}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_FALSE(p.convert);
  EXPECT_EQ(loopsOf(p), (Loops{{4096, 1, 4096}, {4096, 4096, 1}}));
  EXPECT_EQ(p.tiledLoops, std::make_pair(int64_t(0), int64_t(1)));
  EXPECT_EQ(tileOf(p), (std::vector<int64_t>{8, 8}));
  EXPECT_EQ(p.vectorWidth, 8);
  // Threads split the source's rows (bands of the source, read whole), not
  // the destination's rows.
  EXPECT_EQ(p.parallelLoop, 1);
  EXPECT_EQ(p.chunks, 16);
  EXPECT_TRUE(p.index32);
  // 64 MiB written, twice the 32 MiB cache.
  EXPECT_TRUE(p.streamingStores);
}

TEST(KernelPlan, TransposesSplitTheSourcesOutermostLoop) {
  // P4, [256]^3 permute (2, 1, 0): the destination's outermost loop is the
  // source's unit-stride one. x's dim 0 (stride 65536) is outermost in the
  // source but the destination's stride-1 loop, whose chunks would each
  // write a band of every destination row: the split goes to the next loop
  // in source order (stride 256), whose chunks own whole rows.
  KernelPlan p = permuteCopy({256, 256, 256}, {2, 1, 0}, 4);
  EXPECT_EQ(loopsOf(p),
            (Loops{{256, 1, 65536}, {256, 256, 256}, {256, 65536, 1}}));
  EXPECT_EQ(p.parallelLoop, 1);
  // P1 has no other loop: it splits the destination's stride-1 loop.
  EXPECT_EQ(permuteCopy({4096, 4096}, {1, 0}, 4).parallelLoop, 1);
  // P3, NHWC -> NCHW: the batch is outermost on both sides.
  KernelPlan q = permuteCopy({16, 112, 112, 64}, {0, 3, 1, 2}, 4);
  EXPECT_EQ(q.parallelLoop, 0);
}

TEST(KernelPlan, P1OddExtents) {
  KernelPlan p = permuteCopy({4095, 4097}, {1, 0}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_EQ(loopsOf(p), (Loops{{4097, 1, 4095}, {4095, 4097, 1}}));
  EXPECT_EQ(tileOf(p), (std::vector<int64_t>{8, 8}));
  EXPECT_EQ(p.chunks, 16);
}

TEST(KernelPlan, P2NchwToNhwc) {
  KernelPlan p = permuteCopy({16, 64, 112, 112}, {0, 2, 3, 1}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  // H and W merge on both sides; N does not (C sits between in the source).
  EXPECT_EQ(loopsOf(p),
            (Loops{{16, 802816, 802816}, {12544, 1, 64}, {64, 12544, 1}}));
  EXPECT_EQ(p.tiledLoops, std::make_pair(int64_t(1), int64_t(2)));
  EXPECT_EQ(tileOf(p), (std::vector<int64_t>{8, 8}));
  EXPECT_EQ(p.parallelLoop, 0);
  EXPECT_EQ(p.chunks, 16);
  EXPECT_TRUE(p.streamingStores);
  EXPECT_TRUE(p.index32);
}

TEST(KernelPlan, P3NhwcToNchw) {
  KernelPlan p = permuteCopy({16, 112, 112, 64}, {0, 3, 1, 2}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_EQ(loopsOf(p),
            (Loops{{16, 802816, 802816}, {64, 1, 12544}, {12544, 64, 1}}));
  EXPECT_EQ(p.tiledLoops, std::make_pair(int64_t(1), int64_t(2)));
}

TEST(KernelPlan, P4Reverse3d) {
  KernelPlan p = permuteCopy({256, 256, 256}, {2, 1, 0}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_EQ(loopsOf(p),
            (Loops{{256, 1, 65536}, {256, 256, 256}, {256, 65536, 1}}));
  EXPECT_EQ(p.tiledLoops, std::make_pair(int64_t(0), int64_t(2)));
  // The outer loop is tiled: 256 / 8 == 32 row blocks, enough for 16.
  EXPECT_EQ(p.chunks, 16);
}

TEST(KernelPlan, P5BatchedTranspose) {
  KernelPlan p = permuteCopy({64, 512, 512}, {0, 2, 1}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_EQ(loopsOf(p),
            (Loops{{64, 262144, 262144}, {512, 1, 512}, {512, 512, 1}}));
  EXPECT_EQ(p.tiledLoops, std::make_pair(int64_t(1), int64_t(2)));
}

TEST(KernelPlan, P6StrideOneDimKept) {
  KernelPlan p = permuteCopy({512, 256, 128}, {1, 0, 2}, 4);
  // Rows of 128 contiguous elements on both sides: no tile needed. The
  // stores stream whole lines, so the rows are walked in the source's order
  // (its dim 0 outermost) and the threads split the source into bands.
  EXPECT_EQ(p.strategy, KernelStrategy::Gather);
  EXPECT_TRUE(p.streamingStores);
  EXPECT_EQ(loopsOf(p),
            (Loops{{512, 32768, 128}, {256, 128, 65536}, {128, 1, 1}}));
  EXPECT_EQ(p.parallelLoop, 0);
  EXPECT_EQ(p.chunks, 16);
  EXPECT_FALSE(p.tiledLoops);
  EXPECT_TRUE(p.tile.empty());
  // Cache-resident (no streaming stores): the destination's order, which
  // fills each written line in one pass.
  KernelPlan small = permuteCopy({32, 16, 128}, {1, 0, 2}, 4);
  EXPECT_EQ(loopsOf(small),
            (Loops{{16, 128, 4096}, {32, 2048, 128}, {128, 1, 1}}));
  // Rows that end mid-line stream joined (joinsRuns), in source order too.
  KernelPlan odd = permuteCopy({511, 255, 129}, {1, 0, 2}, 4);
  EXPECT_TRUE(odd.streamingStores);
  EXPECT_TRUE(joinsRuns(odd));
  EXPECT_EQ(loopsOf(odd),
            (Loops{{511, 32895, 129}, {255, 129, 65919}, {129, 1, 1}}));
  // Rows of 2-byte elements, which AVX2 has no masked loads for, end
  // mid-line: the destination's order, normal stores.
  KernelPlan half = permuteCopy({1023, 255, 129}, {1, 0, 2}, 2);
  EXPECT_FALSE(joinsRuns(half));
  EXPECT_FALSE(half.streamingStores);
  EXPECT_EQ(half.loops.front().size, 255);
}

TEST(KernelPlan, JoinedRuns) {
  // Runs of one line up to 4 KiB, 4- or 8-byte elements of one type, that
  // fill a dense destination: P6 odd, f64, a slice, a broadcast row.
  EXPECT_TRUE(joinsRuns(permuteCopy({255, 257, 65}, {1, 0, 2}, 8)));
  StridedLayout sliced(llvm::ArrayRef<int64_t>{16400, 513},
                       llvm::ArrayRef<int64_t>{515, 1}, 1);
  Fallible<KernelPlan> slice =
      planCopy(sliced, rowMajor({16400, 513}), 4, 4, {});
  ASSERT_TRUE(slice.ok());
  EXPECT_TRUE(joinsRuns(*slice));
  EXPECT_TRUE(slice->streamingStores);
  StridedLayout row(llvm::ArrayRef<int64_t>{16384, 300},
                    llvm::ArrayRef<int64_t>{0, 1}, 0);
  Fallible<KernelPlan> broadcast =
      planCopy(row, rowMajor({16384, 300}), 4, 4, {});
  ASSERT_TRUE(broadcast.ok());
  EXPECT_EQ(broadcast->strategy, KernelStrategy::Broadcast);
  EXPECT_TRUE(joinsRuns(*broadcast));
  // Not: runs shorter than a line (15 floats), of 4 KiB or more (they
  // stream on their own), a conversion, a destination with gaps (rows of
  // 513 floats 515 apart), a transpose.
  Fallible<KernelPlan> narrow =
      planCopy(StridedLayout(llvm::ArrayRef<int64_t>{1 << 20, 15},
                             llvm::ArrayRef<int64_t>{17, 1}, 0),
               rowMajor({1 << 20, 15}), 4, 4, {});
  ASSERT_TRUE(narrow.ok());
  EXPECT_FALSE(joinsRuns(*narrow));
  EXPECT_FALSE(joinsRuns(permuteCopy({2048, 3, 1025}, {1, 0, 2}, 4)));
  EXPECT_FALSE(joinsRuns(permuteCopy({511, 255, 129}, {1, 0, 2}, 4, 8)));
  StridedLayout rowsWithGaps(llvm::ArrayRef<int64_t>{16400, 513},
                             llvm::ArrayRef<int64_t>{515, 1}, 0);
  Fallible<KernelPlan> gaps = planCopy(sliced, rowsWithGaps, 4, 4, {});
  ASSERT_TRUE(gaps.ok());
  EXPECT_FALSE(joinsRuns(*gaps));
  EXPECT_FALSE(joinsRuns(permuteCopy({4095, 4097}, {1, 0}, 4)));
}

TEST(KernelPlan, P7Reverse4d) {
  KernelPlan p = permuteCopy({64, 64, 64, 64}, {3, 2, 1, 0}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_EQ(
      loopsOf(p),
      (Loops{
          {64, 1, 262144}, {64, 64, 4096}, {64, 4096, 64}, {64, 262144, 1}}));
  EXPECT_EQ(p.tiledLoops, std::make_pair(int64_t(0), int64_t(3)));
  // The source's outermost loop is the destination's stride-1 loop: the
  // split takes the next one in source order (stride 4096), 16 chunks of 4.
  EXPECT_EQ(p.parallelLoop, 2);
  EXPECT_EQ(p.chunks, 16);
  EXPECT_EQ(chunkGrain(p), 4);
}

TEST(KernelPlan, OddTransposesSplitWholeRows) {
  // P7 at 63x65x63x65: destination rows of 63 floats, no whole lines, so
  // the tiles store normally. Split along b (the source's outermost loop),
  // four chunks of 16 columns would each write part of every line; the
  // split takes the next loop in source order, whose chunks own whole rows.
  KernelPlan p = permuteCopy({63, 65, 63, 65}, {3, 2, 1, 0}, 4);
  EXPECT_EQ(
      loopsOf(p),
      (Loops{
          {65, 1, 257985}, {63, 65, 4095}, {65, 4095, 63}, {63, 266175, 1}}));
  EXPECT_FALSE(p.streamingStores);
  EXPECT_EQ(p.parallelLoop, 2);
  // The tile's edges (b = 63 is three squares of 16 and 15 columns) move
  // as masked squares; 2-byte elements take scalars.
  TransposeTiling t = transposeTiling(p);
  EXPECT_TRUE(t.maskedEdges);
  // Loop 1 continues the source rows (65 = a's extent) and runs inside
  // each b-block; loop 2 continues the destination rows (63 = b's extent)
  // and runs outside.
  EXPECT_EQ(t.inside, (llvm::SmallVector<int64_t, 4>{1}));
  EXPECT_EQ(t.outside, (llvm::SmallVector<int64_t, 4>{2}));
  EXPECT_TRUE(t.insideBlocks);
  EXPECT_FALSE(transposeTiling(permuteCopy({63, 65, 63, 65}, {3, 2, 1, 0}, 2))
                   .maskedEdges);
  EXPECT_FALSE(
      transposeTiling(permuteCopy({63, 65, 63, 65}, {3, 2, 1, 0}, 4, 2))
          .maskedEdges);
  // A 2-D transpose has no other loop: it still splits b.
  KernelPlan flat = permuteCopy({1000, 1001}, {1, 0}, 4);
  EXPECT_FALSE(flat.streamingStores);
  EXPECT_EQ(flat.parallelLoop, 1);
  // So do streaming tiles (whole lines).
  EXPECT_EQ(permuteCopy({64, 64, 64, 64}, {3, 2, 1, 0}, 4).parallelLoop, 2);
}

TEST(KernelPlan, P8Rank5) {
  KernelPlan p = permuteCopy({32, 32, 32, 16, 32}, {4, 2, 0, 3, 1}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_EQ(loopsOf(p), (Loops{{32, 1, 524288},
                               {32, 512, 16384},
                               {32, 524288, 512},
                               {16, 32, 32},
                               {32, 16384, 1}}));
  EXPECT_EQ(p.tiledLoops, std::make_pair(int64_t(0), int64_t(4)));
}

TEST(KernelPlan, P9Rank6) {
  KernelPlan p = permuteCopy({16, 16, 16, 16, 16, 16}, {5, 3, 1, 0, 2, 4}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_EQ(p.loops.size(), 6u);
  EXPECT_EQ(p.tiledLoops, std::make_pair(int64_t(0), int64_t(5)));
  EXPECT_EQ(p.loops[0], (KernelLoop{16, 1, 1048576}));
  EXPECT_EQ(p.loops[5], (KernelLoop{16, 16, 1}));
}

TEST(KernelPlan, P10HalfTranspose) {
  KernelPlan p = permuteCopy({8192, 4096}, {1, 0}, 2);
  EXPECT_EQ(loopsOf(p), (Loops{{4096, 1, 8192}, {8192, 4096, 1}}));
  EXPECT_EQ(p.vectorWidth, 16);
  // The register tile is 8 x 8 halves (8 rows of 16 bytes), not one vector.
  EXPECT_EQ(tileOf(p), (std::vector<int64_t>{8, 8}));
  EXPECT_TRUE(p.streamingStores);
}

TEST(KernelPlan, P11ByteNchwToNhwc) {
  KernelPlan p = permuteCopy({16, 3, 1024, 1024}, {0, 2, 3, 1}, 1);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_EQ(loopsOf(p),
            (Loops{{16, 3145728, 3145728}, {1048576, 1, 3}, {3, 1048576, 1}}));
  EXPECT_EQ(p.vectorWidth, 32);
  // 8 rows; the tile never exceeds the 3 channels.
  EXPECT_EQ(tileOf(p), (std::vector<int64_t>{8, 3}));
  EXPECT_EQ(p.chunks, 16);
  // The three channel rows interleave into one 3 MiB run per image, stored
  // a 32-byte vector per channel at a time: whole lines but at its ends.
  EXPECT_TRUE(transposeTiling(p).interleave);
  EXPECT_TRUE(p.streamingStores);
}

TEST(KernelPlan, ShortInterleavedRunsStoreNormally) {
  // 4 x 4 pixels of 3 bytes: 48-byte runs would share their edge lines
  // between streaming and normal stores.
  KernelPlan p = permuteCopy({1 << 20, 3, 4, 4}, {0, 2, 3, 1}, 1);
  EXPECT_TRUE(transposeTiling(p).interleave);
  EXPECT_FALSE(p.streamingStores);
}

TEST(KernelPlan, C1ConvertFusedWithNhwc) {
  KernelPlan p = permuteCopy({16, 64, 112, 112}, {0, 2, 3, 1}, 4, 2);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_TRUE(p.convert);
  EXPECT_EQ(p.srcElementBytes, 4);
  EXPECT_EQ(p.dstElementBytes, 2);
  EXPECT_EQ(p.vectorWidth, 8);
  EXPECT_EQ(tileOf(p), (std::vector<int64_t>{8, 8}));
  // 24.5 MiB of f16 would fit the 32 MiB cache, but not with the 49 MiB of
  // f32 read on the way.
  EXPECT_TRUE(p.streamingStores);
  EXPECT_FALSE(p.accumulator);
}

TEST(KernelPlan, SameWidthConversion) {
  StridedLayout l = rowMajor({4, 4});
  Fallible<KernelPlan> p = planCopy(l, l, 2, 2, {}, /*convert=*/true);
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->convert);
  EXPECT_EQ(p->strategy, KernelStrategy::Memcpy);
}

TEST(KernelPlan, G1StridedGather) {
  StridedLayout src =
      *slice(rowMajor({8192, 8192}), 1, std::nullopt, std::nullopt, 2);
  Fallible<KernelPlan> p = planCopy(src, rowMajor(src.sizes), 4, 4);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->strategy, KernelStrategy::Gather);
  // Row ends meet: one loop of stride 2.
  EXPECT_EQ(loopsOf(*p), (Loops{{33554432, 2, 1}}));
  EXPECT_EQ(p->parallelLoop, 0);
  EXPECT_EQ(p->chunks, 16);
  EXPECT_TRUE(p->index32);
  EXPECT_TRUE(p->streamingStores);
  // AVX2 vectors by default (16 registers): 8 floats.
  EXPECT_EQ(p->vectorWidth, 8);
}

TEST(KernelPlan, DeinterleavingGathersStoreWholeLines) {
  TargetInfo avx512 = cpuTarget(/*avx512=*/true);
  auto gather = [&](llvm::ArrayRef<int64_t> sizes, int64_t step,
                    int64_t bytes) {
    StridedLayout src =
        *slice(rowMajor(sizes), 1, std::nullopt, std::nullopt, step);
    Fallible<KernelPlan> p =
        planCopy(src, rowMajor(src.sizes), bytes, bytes, avx512);
    EXPECT_TRUE(p.ok());
    return p ? *p : KernelPlan();
  };
  // Streaming, stride 2 or 3 innermost: one 64-byte line per vector.
  KernelPlan g1 = gather({8192, 8192}, 2, 4);
  EXPECT_TRUE(g1.streamingStores);
  EXPECT_EQ(g1.vectorWidth, 16);
  EXPECT_EQ(gather({1100, 12301}, 3, 4).vectorWidth, 16);
  EXPECT_EQ(gather({1100, 4099}, 2, 8).vectorWidth, 8);
  // Not streaming (in cache): the common 32-byte vectors.
  KernelPlan small = gather({256, 512}, 2, 4);
  EXPECT_FALSE(small.streamingStores);
  EXPECT_EQ(small.vectorWidth, 8);
  // Beyond maxDeinterleave (4), lanes load one by one: 32-byte vectors.
  EXPECT_EQ(gather({1024, 40960}, 5, 4).vectorWidth, 8);
  // AVX2 targets keep 32-byte vectors.
  StridedLayout src =
      *slice(rowMajor({8192, 8192}), 1, std::nullopt, std::nullopt, 2);
  Fallible<KernelPlan> v3 =
      planCopy(src, rowMajor(src.sizes), 4, 4, cpuTarget(false));
  ASSERT_TRUE(v3.ok());
  EXPECT_EQ(v3->vectorWidth, 8);
}

TEST(KernelPlan, G2Broadcast) {
  StridedLayout src = *expand(rowMajor({1, 8192}), {8192, 8192});
  Fallible<KernelPlan> p = planCopy(src, rowMajor({8192, 8192}), 4, 4);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->strategy, KernelStrategy::Broadcast);
  EXPECT_EQ(loopsOf(*p), (Loops{{8192, 0, 8192}, {8192, 1, 1}}));
  EXPECT_TRUE(p->streamingStores);
}

TEST(KernelPlan, NegativeStrides) {
  StridedLayout src = *flip(rowMajor({3, 4}), {0, 1});
  Fallible<KernelPlan> p = planCopy(src, rowMajor({3, 4}), 4, 4);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->strategy, KernelStrategy::Gather);
  // Fully flipped: one reversed run.
  EXPECT_EQ(loopsOf(*p), (Loops{{12, -1, 1}}));
  StridedLayout rows = *flip(rowMajor({3, 4}), {0});
  p = planCopy(rows, rowMajor({3, 4}), 4, 4);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(loopsOf(*p), (Loops{{3, -4, 4}, {4, 1, 1}}));
}

TEST(KernelPlan, MemcpyInAnyDimOrder) {
  // channels_last to channels_last is one run in the destination's order.
  StridedLayout cl(llvm::ArrayRef<int64_t>{2, 3, 4, 5},
                   *channelsLastStrides({2, 3, 4, 5}));
  Fallible<KernelPlan> p = planCopy(cl, cl, 4, 4);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->strategy, KernelStrategy::Memcpy);
  EXPECT_EQ(loopsOf(*p), (Loops{{120, 1, 1}}));
  EXPECT_EQ(p->vectorWidth, 8);
}

TEST(KernelPlan, SizeZeroAndOneDims) {
  Fallible<KernelPlan> empty =
      planCopy(*permute(rowMajor({0, 5}), {1, 0}), rowMajor({5, 0}), 4, 4);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(loopsOf(*empty), (Loops{{0, 1, 1}}));
  EXPECT_EQ(empty->chunks, 1);
  EXPECT_FALSE(empty->parallelLoop);
  EXPECT_TRUE(empty->index32);
  EXPECT_FALSE(empty->streamingStores);

  // Size-1 dims vanish from the nest, wherever their strides point.
  KernelPlan p = permuteCopy({1, 4, 1, 3}, {3, 2, 0, 1}, 4);
  EXPECT_EQ(p.strategy, KernelStrategy::Transpose);
  EXPECT_EQ(loopsOf(p), (Loops{{3, 1, 4}, {4, 3, 1}}));

  // A rank-0 copy is one element.
  Fallible<KernelPlan> scalar =
      planCopy(StridedLayout({}, {}, 7), StridedLayout({}, {}, 0), 8, 8);
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->strategy, KernelStrategy::Memcpy);
  EXPECT_EQ(loopsOf(*scalar), (Loops{{1, 1, 1}}));
}

TEST(KernelPlan, ThreadSplitThreshold) {
  // 256 x 256 f32 transposed: 512 KiB of traffic, two 256 KiB chunks.
  EXPECT_EQ(permuteCopy({256, 256}, {1, 0}, 4).chunks, 2);
  // One column less: below two chunks' worth, no split at all.
  KernelPlan small = permuteCopy({256, 255}, {1, 0}, 4);
  EXPECT_EQ(small.chunks, 1);
  EXPECT_FALSE(small.parallelLoop);
  // One thread never splits.
  TargetInfo single;
  single.numThreads = 1;
  KernelPlan one = permuteCopy({4096, 4096}, {1, 0}, 4, 0, single);
  EXPECT_EQ(one.chunks, 1);
  EXPECT_FALSE(one.parallelLoop);
}

TEST(KernelPlan, ChunksAreTheChunksThatRun) {
  // The grain rounds up, so fewer chunks may cover the loop than the thread
  // budget allows; the plan states the count that runs.
  auto covers = [](const KernelPlan &p) {
    if (!p.parallelLoop)
      return p.chunks == 1 && chunkGrain(p) == 1;
    int64_t n = p.loops[*p.parallelLoop].size;
    return llvm::divideCeil(n, chunkGrain(p)) == p.chunks;
  };
  // x[:, ::2] of 100 padded rows in at most 16 chunks: 15 chunks of 7.
  Fallible<KernelPlan> rows = planCopy(StridedLayout({100, 65536}, {131200, 2}),
                                       rowMajor({100, 65536}), 4, 4);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->parallelLoop, 0);
  EXPECT_EQ(rows->chunks, 15);
  EXPECT_EQ(chunkGrain(*rows), 7);
  EXPECT_TRUE(covers(*rows));
  // A transpose split along the destination's stride-1 loop cuts whole
  // lines: 4097 f32 columns are 257 lines of 16, in 16 chunks of 17 lines
  // (in cache: rectangular tiles).
  TargetInfo cached;
  cached.cacheBytes = int64_t(1) << 40;
  KernelPlan odd = permuteCopy({4097, 4095}, {1, 0}, 4, 0, cached);
  ASSERT_TRUE(odd.tiledLoops);
  EXPECT_FALSE(odd.streamingStores);
  EXPECT_EQ(odd.parallelLoop, odd.tiledLoops->second);
  EXPECT_EQ(chunkGrain(odd), 17 * 16);
  EXPECT_EQ(odd.chunks, 16);
  EXPECT_TRUE(covers(odd));
  // Streaming through skewed tiles, in units of 16 lines (257 lines make
  // 16 units and a line): 9 chunks of 2 units.
  KernelPlan skewed = permuteCopy({4097, 4095}, {1, 0}, 4);
  EXPECT_TRUE(skewed.streamingStores);
  EXPECT_EQ(chunkGrain(skewed), 2 * 16 * 16);
  EXPECT_EQ(skewed.chunks, 9);
  EXPECT_TRUE(covers(skewed));
  // f16 destinations hold 32 elements a line: destination rows of 64
  // halves split in 2 chunks of a line (tiles of one line each, rather
  // than one chunk of a pair).
  KernelPlan half = permuteCopy({64, 1 << 20}, {1, 0}, 2);
  EXPECT_TRUE(half.streamingStores);
  EXPECT_EQ(half.parallelLoop, 1);
  EXPECT_EQ(chunkGrain(half), 32);
  EXPECT_EQ(half.chunks, 2);
  EXPECT_TRUE(covers(half));
  // i8 (one line of 64 along b, and in cache): normal stores, so the split
  // takes the loop after b in source order.
  KernelPlan bytes = permuteCopy({64, 64, 64, 64}, {3, 2, 1, 0}, 1);
  EXPECT_FALSE(bytes.streamingStores);
  EXPECT_EQ(bytes.parallelLoop, 2);
  EXPECT_EQ(bytes.chunks, 16);
  EXPECT_TRUE(covers(bytes));
  // Every bench-shaped plan, at 16 and at 64 threads.
  TargetInfo wide;
  wide.numThreads = 64;
  for (const TargetInfo &t : {TargetInfo(), wide}) {
    EXPECT_TRUE(covers(permuteCopy({4096, 4096}, {1, 0}, 4, 0, t)));
    EXPECT_TRUE(covers(permuteCopy({16, 64, 112, 112}, {0, 2, 3, 1}, 4, 0, t)));
    EXPECT_TRUE(covers(permuteCopy({16, 112, 112, 64}, {0, 3, 1, 2}, 4, 0, t)));
    EXPECT_TRUE(covers(permuteCopy({256, 256, 256}, {2, 1, 0}, 4, 0, t)));
    EXPECT_TRUE(covers(permuteCopy({64, 64, 64, 64}, {3, 2, 1, 0}, 4, 0, t)));
    EXPECT_TRUE(covers(permuteCopy({8192, 4096}, {1, 0}, 2, 0, t)));
    EXPECT_TRUE(covers(permuteCopy({4095, 4097}, {1, 0}, 4, 0, t)));
    EXPECT_TRUE(covers(
        reduce(rowMajor({16384, 1024}), {0}, ReductionKind::Sum, f32, t)));
    EXPECT_TRUE(covers(
        reduce(rowMajor({16383, 1025}), {0}, ReductionKind::Sum, f32, t)));
    EXPECT_TRUE(covers(
        reduce(rowMajor({16384, 1024}), {1}, ReductionKind::Sum, f32, t)));
  }
}

TEST(KernelPlan, Index32Boundary) {
  constexpr int64_t n = int64_t(1) << 29;
  // 2^29 f32: the last byte is at 2^31 - 1, INT32_MAX.
  EXPECT_TRUE(*fitsIndex32(rowMajor({n}), 4));
  EXPECT_FALSE(*fitsIndex32(rowMajor({n + 1}), 4));
  // Reversed, the reach is below the first element: -(n) * 4 == INT32_MIN.
  EXPECT_TRUE(*fitsIndex32(*flip(rowMajor({n + 1}), {0}), 4));
  EXPECT_FALSE(*fitsIndex32(*flip(rowMajor({n + 2}), {0}), 4));
  // Copies check both sides and the element count.
  Fallible<KernelPlan> fits = planCopy(rowMajor({n}), rowMajor({n}), 4, 4);
  ASSERT_TRUE(fits.ok());
  EXPECT_TRUE(fits->index32);
  Fallible<KernelPlan> wide =
      planCopy(rowMajor({n + 1}), rowMajor({n + 1}), 4, 2);
  ASSERT_TRUE(wide.ok());
  EXPECT_FALSE(wide->index32);
  // 2^31 bytes reach INT32_MAX, but 2^31 elements do not fit the counter.
  constexpr int64_t bytes = int64_t(1) << 31;
  EXPECT_TRUE(
      planCopy(rowMajor({bytes - 1}), rowMajor({bytes - 1}), 1, 1)->index32);
  EXPECT_FALSE(planCopy(rowMajor({bytes}), rowMajor({bytes}), 1, 1)->index32);
  // A strided read reaches far beyond its element count.
  StridedLayout sparse({2, 2}, {int64_t(1) << 30, 1});
  EXPECT_FALSE(planCopy(sparse, rowMajor({2, 2}), 4, 4)->index32);
}

TEST(KernelPlan, Errors) {
  StridedLayout dynamic({4}, {kDynamic});
  EXPECT_FALSE(planCopy(dynamic, rowMajor({4}), 4, 4).ok());
  EXPECT_FALSE(planCopy(rowMajor({4}), rowMajor({5}), 4, 4).ok());
  EXPECT_FALSE(planReduction(rowMajor({4}), {1}, ReductionKind::Sum, f32).ok());
}
