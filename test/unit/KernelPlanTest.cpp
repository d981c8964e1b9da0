//===- KernelPlanTest.cpp - Kernel planning over the bench cases ----------===//
//
// Each copy case of the benchmark suite (bench/cases.py, CPU cases) planned
// for the reference target, plus the edges: odd extents, size-0 and size-1
// dims, negative strides, the int32 index boundary, the thread-split and
// streaming-store thresholds. Reductions: ReducePlanTest.cpp.
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

TEST(KernelPlan, InsideLoopsWithinBlocks) {
  // Streaming tiles (P7 at 64^4) keep both loops inside, in source order,
  // and always run them within b-blocks.
  TransposeTiling full =
      transposeTiling(permuteCopy({64, 64, 64, 64}, {3, 2, 1, 0}, 4));
  EXPECT_EQ(full.inside, (llvm::SmallVector<int64_t, 4>{2, 1}));
  EXPECT_FALSE(full.insideBlocks);
  // In L2 (P7 at 16^4, 512 KiB of traffic), a plane per inside iteration.
  TransposeTiling small =
      transposeTiling(permuteCopy({16, 16, 16, 16}, {3, 2, 1, 0}, 4));
  EXPECT_EQ(small.inside, (llvm::SmallVector<int64_t, 4>{2, 1}));
  EXPECT_FALSE(small.insideBlocks);
  // P8 at 31x33x31x17x31: loop 3 continues both the source rows (31 = a's
  // extent) and the destination rows (33 = b's): a b-block's partial lines
  // would wait a whole pass, so planes.
  KernelPlan p8 = permuteCopy({31, 33, 31, 17, 31}, {4, 2, 0, 3, 1}, 4);
  EXPECT_EQ(loopsOf(p8), (Loops{{31, 1, 539121},
                                {31, 527, 17391},
                                {31, 539121, 561},
                                {17, 31, 33},
                                {33, 16337, 1}}));
  TransposeTiling t8 = transposeTiling(p8);
  EXPECT_EQ(t8.inside, (llvm::SmallVector<int64_t, 4>{1, 3}));
  EXPECT_FALSE(t8.insideBlocks);
}

TEST(KernelPlan, StagedRows) {
  TargetInfo avx512;
  avx512.vectorRegisters = 32;
  // NCHW -> NHWC with 63 channels (P2 odd): destination rows of 252 bytes,
  // one after another: staged through a buffer of 16 rows (16 x 63 floats,
  // 4 KiB), and streamed. Split along the batch.
  KernelPlan p = permuteCopy({15, 63, 111, 113}, {0, 2, 3, 1}, 4, 0, avx512);
  TransposeTiling t = transposeTiling(p);
  EXPECT_TRUE(t.staged);
  EXPECT_FALSE(t.skewed);
  EXPECT_EQ(t.stageRows, 16);
  EXPECT_TRUE(p.streamingStores);
  EXPECT_EQ(p.parallelLoop, 0);
  // Without a loop outside the tile, the split takes a: chunks are spans.
  KernelPlan flat = permuteCopy({24, 350003}, {1, 0}, 4);
  EXPECT_TRUE(transposeTiling(flat).staged);
  EXPECT_EQ(flat.parallelLoop, flat.tiledLoops->first);
  // f64 on AVX2 (20 channels, 160-byte rows): squares of 4, two side by side
  // along a line of the source.
  EXPECT_EQ(
      transposeTiling(permuteCopy({2, 20, 120003}, {0, 2, 1}, 8)).stageRows, 8);
  // Not staged: rows that skew (100 floats, 49 KiB source rows), element
  // by element edges (f32 -> f16 with 63 channels), blocks over 16 KiB
  // (P5 at 63x511x513), and a destination row not right after the last
  // (P4 at 255x257x255).
  EXPECT_TRUE(
      transposeTiling(permuteCopy({8, 100, 112, 112}, {0, 2, 3, 1}, 4)).skewed);
  EXPECT_FALSE(
      transposeTiling(permuteCopy({8, 100, 112, 112}, {0, 2, 3, 1}, 4)).staged);
  EXPECT_FALSE(
      transposeTiling(permuteCopy({15, 63, 111, 113}, {0, 2, 3, 1}, 4, 2))
          .staged);
  EXPECT_FALSE(
      transposeTiling(permuteCopy({63, 511, 513}, {0, 2, 1}, 4)).staged);
  EXPECT_FALSE(
      transposeTiling(permuteCopy({255, 257, 255}, {2, 1, 0}, 4)).staged);
}

TEST(KernelPlan, LinesPerSet) {
  // 64 sets of 64-byte lines: rows 4 KiB apart all share one, 1 KiB apart
  // every fourth, 4224 bytes (66 lines) apart none within 32 rows.
  EXPECT_EQ(linesPerSet(4096, 16), 16);
  EXPECT_EQ(linesPerSet(-4096, 8), 8);
  EXPECT_EQ(linesPerSet(1024, 16), 4);
  EXPECT_EQ(linesPerSet(4224, 32), 1);
  EXPECT_EQ(linesPerSet(256, 16), 1);
  EXPECT_EQ(linesPerSet(4096, 0), 0);
}

TEST(KernelPlan, RowsFirstInCache) {
  TargetInfo avx512;
  avx512.vectorRegisters = 32;
  // P1 at 256x256: source and destination rows 1 KiB apart, four of a
  // tile's 16 in each L1 set on both sides: rows of tiles along b first,
  // and the split takes a (chunks along b would write bands of the same
  // destination rows at once).
  KernelPlan p1 = permuteCopy({256, 256}, {1, 0}, 4, 0, avx512);
  EXPECT_TRUE(transposeTiling(p1).rowsFirst);
  EXPECT_EQ(p1.chunks, 2);
  EXPECT_EQ(p1.parallelLoop, p1.tiledLoops->first);
  // NHWC -> NCHW at 1x32x32x64 (destination rows 4 KiB apart, source rows
  // 256 bytes), and a batch of them, split by image.
  EXPECT_TRUE(
      transposeTiling(permuteCopy({1, 32, 32, 64}, {0, 3, 1, 2}, 4, 0, avx512))
          .rowsFirst);
  KernelPlan batched = permuteCopy({4, 128, 128}, {0, 2, 1}, 4, 0, avx512);
  EXPECT_TRUE(transposeTiling(batched).rowsFirst);
  EXPECT_EQ(batched.parallelLoop, 0);
  // Not where the source rows crowd the sets more (NCHW -> NHWC: source rows
  // 4 KiB apart, destination rows 256 bytes), nor beyond L2 (P1 at
  // 1024x1024, 8 MiB of traffic): those split along b as before.
  KernelPlan nhwc = permuteCopy({1, 64, 32, 32}, {0, 2, 3, 1}, 4, 0, avx512);
  EXPECT_FALSE(transposeTiling(nhwc).rowsFirst);
  EXPECT_EQ(nhwc.parallelLoop, nhwc.tiledLoops->second);
  KernelPlan big = permuteCopy({1024, 1024}, {1, 0}, 4, 0, avx512);
  EXPECT_FALSE(transposeTiling(big).rowsFirst);
  EXPECT_EQ(big.parallelLoop, big.tiledLoops->second);
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

TEST(KernelPlan, StreamingStoreThreshold) {
  TargetInfo t;
  t.cacheBytes = 8192;
  // Traffic (read + written) exactly the cache: stores stay cached.
  EXPECT_FALSE(permuteCopy({32, 32}, {1, 0}, 4, 0, t).streamingStores);
  EXPECT_TRUE(permuteCopy({32, 33}, {1, 0}, 4, 0, t).streamingStores);
  // A narrowing conversion: 4 KiB written, but 8 KiB + 4 KiB of traffic.
  t.cacheBytes = 8192;
  EXPECT_TRUE(permuteCopy({32, 32}, {1, 0}, 8, 4, t).streamingStores);
}

TEST(KernelPlan, StreamingStoresOnlyInWholeLines) {
  // P6: rows of 128 floats (whole lines) stream; rows of 129 f16 (258
  // bytes, ending mid-line, not joined) do not; rows of 4 KiB or more do.
  KernelPlan lines = permuteCopy({512, 256, 128}, {1, 0, 2}, 4);
  EXPECT_EQ(lines.strategy, KernelStrategy::Gather);
  EXPECT_TRUE(lines.streamingStores);
  KernelPlan odd = permuteCopy({1023, 255, 129}, {1, 0, 2}, 2);
  EXPECT_EQ(odd.strategy, KernelStrategy::Gather);
  EXPECT_FALSE(odd.streamingStores);
  EXPECT_TRUE(permuteCopy({2048, 3, 1025}, {1, 0, 2}, 4).streamingStores);
  // Transposes stream tiles whose rows are whole lines a whole number of
  // lines apart (P1), or skewed tiles (P1 odd, 4095-float destination
  // rows), unless b's chunks would be narrower than 4 lines (1000 floats
  // split in 16 chunks).
  EXPECT_TRUE(permuteCopy({4096, 4096}, {1, 0}, 4).streamingStores);
  EXPECT_TRUE(permuteCopy({4095, 4097}, {1, 0}, 4).streamingStores);
  KernelPlan narrow = permuteCopy({1000, 8193}, {1, 0}, 4);
  EXPECT_TRUE(transposeTiling(narrow).skewed);
  EXPECT_EQ(narrow.parallelLoop, narrow.tiledLoops->second);
  EXPECT_FALSE(narrow.streamingStores);
  // Skewed windows need source rows of 4 KiB or more, or a window of
  // adjacent rows up to 64 KiB (P3 odd, 63 channels: 36 KiB). P4 odd (1 KiB
  // rows 256 KiB apart) and P5 odd (2 KiB rows, windows of 288 KiB) take
  // rectangular tiles and store normally.
  EXPECT_TRUE(
      transposeTiling(permuteCopy({15, 111, 113, 63}, {0, 3, 1, 2}, 4)).skewed);
  EXPECT_TRUE(permuteCopy({15, 111, 113, 63}, {0, 3, 1, 2}, 4).streamingStores);
  for (KernelPlan p : {permuteCopy({255, 257, 255}, {2, 1, 0}, 4),
                       permuteCopy({63, 511, 513}, {0, 2, 1}, 4),
                       permuteCopy({15, 1025, 1023}, {0, 2, 1}, 4)}) {
    EXPECT_FALSE(transposeTiling(p).skewed);
    EXPECT_FALSE(p.streamingStores);
  }
  EXPECT_TRUE(
      transposeTiling(permuteCopy({4, 2049, 2047}, {0, 2, 1}, 4)).skewed);
}

TEST(KernelPlan, TransposeTilingIsWhatTheBackendEmits) {
  // P1: 8x8 squares, two per 16-float line; rows 16 KiB apart.
  TransposeTiling p1 = transposeTiling(permuteCopy({4096, 4096}, {1, 0}, 4));
  EXPECT_EQ(p1.edge, 8);
  EXPECT_EQ(p1.width, 16);
  EXPECT_FALSE(p1.interleave);
  EXPECT_TRUE(p1.inside.empty());
  EXPECT_TRUE(p1.outside.empty());
  EXPECT_TRUE(p1.wholeLines);
  // f64: 4x4 squares (16 registers), 8 doubles per line.
  TransposeTiling f64 = transposeTiling(permuteCopy({512, 512}, {1, 0}, 8));
  EXPECT_EQ(f64.edge, 4);
  EXPECT_EQ(f64.width, 8);
  EXPECT_TRUE(f64.wholeLines);
  // f32 -> f16 (C1): 8x8 squares of the wider type, 32 halves per line.
  TransposeTiling c1 =
      transposeTiling(permuteCopy({16, 64, 112, 112}, {0, 2, 3, 1}, 4, 2));
  EXPECT_EQ(c1.edge, 8);
  EXPECT_EQ(c1.width, 32);
  EXPECT_EQ(c1.outside, (llvm::SmallVector<int64_t, 4>{0}));
  EXPECT_TRUE(c1.wholeLines);
  // P8: the loops with a smaller source stride than b's (16384) continue
  // the tile's source rows inside the b blocks, largest first; the others
  // run outside, by source stride too.
  KernelPlan p8 = permuteCopy({32, 32, 32, 16, 32}, {4, 2, 0, 3, 1}, 4);
  TransposeTiling t8 = transposeTiling(p8);
  EXPECT_EQ(p8.tiledLoops, (std::pair<int64_t, int64_t>{0, 4}));
  EXPECT_EQ(t8.inside, (llvm::SmallVector<int64_t, 4>{1, 3}));
  EXPECT_EQ(t8.outside, (llvm::SmallVector<int64_t, 4>{2}));
  EXPECT_TRUE(t8.wholeLines);
  // P9: b is the source's 16-float rows, so every other loop is outside, by
  // source stride but for the one that continues the destination's rows of
  // one line (destination stride 16, loop 4): innermost, so that consecutive
  // streaming tiles store adjacent lines.
  TransposeTiling t9 = transposeTiling(
      permuteCopy({16, 16, 16, 16, 16, 16}, {5, 3, 1, 0, 2, 4}, 4));
  EXPECT_TRUE(t9.inside.empty());
  EXPECT_EQ(t9.outside, (llvm::SmallVector<int64_t, 4>{3, 2, 1, 4}));
  // Rows of 4 floats: 4x4 squares, one per 16-byte row, not whole lines.
  // The loop that continues those rows (destination stride 4, source 128)
  // runs innermost of the outside ones, so that each destination line is
  // finished by consecutive tiles.
  KernelPlan p9small = permuteCopy({8, 8, 8, 4, 4, 8}, {5, 3, 1, 0, 2, 4}, 4);
  EXPECT_EQ(loopsOf(p9small), (Loops{{8, 1, 8192},
                                     {4, 32, 2048},
                                     {8, 1024, 256},
                                     {8, 8192, 32},
                                     {8, 128, 4},
                                     {4, 8, 1}}));
  TransposeTiling narrow = transposeTiling(p9small);
  EXPECT_EQ(narrow.edge, 4);
  EXPECT_EQ(narrow.width, 4);
  EXPECT_FALSE(narrow.wholeLines);
  EXPECT_FALSE(narrow.skewed);
  EXPECT_EQ(narrow.outside, (llvm::SmallVector<int64_t, 4>{3, 2, 1, 4}));
  // So with rows of 15 floats under 16-wide masked squares (AVX-512): the
  // tile is a line wide, the rows are not.
  TargetInfo avx512;
  avx512.vectorRegisters = 32;
  TransposeTiling odd9 = transposeTiling(
      permuteCopy({15, 17, 15, 17, 15, 17}, {5, 3, 1, 0, 2, 4}, 4, 0, avx512));
  EXPECT_EQ(odd9.edge, 16);
  EXPECT_EQ(odd9.width, 16);
  EXPECT_EQ(odd9.outside, (llvm::SmallVector<int64_t, 4>{3, 2, 1, 4}));
  // Odd row strides: the tile's rows start at different line offsets, so
  // each row skews to its own first line boundary.
  TransposeTiling odd = transposeTiling(permuteCopy({4095, 4097}, {1, 0}, 4));
  EXPECT_EQ(odd.width, 16);
  EXPECT_FALSE(odd.wholeLines);
  EXPECT_TRUE(odd.skewed);
  EXPECT_FALSE(p1.skewed);
  // Rows of 3 lines are too short to skew.
  EXPECT_FALSE(transposeTiling(permuteCopy({48, 4097}, {1, 0}, 4)).skewed);
  // A destination row of 24 halves, shorter than a line: three squares.
  TransposeTiling partial = transposeTiling(permuteCopy({24, 64}, {1, 0}, 2));
  EXPECT_EQ(partial.edge, 8);
  EXPECT_EQ(partial.width, 24);
  EXPECT_FALSE(partial.wholeLines);
}

TEST(KernelPlan, StreamingTilesStorePairsOfLines) {
  // P1 with AVX2: 8x8 squares, one line of 16 floats per tile row in cache
  // and when the destination is not aligned; streaming tiles store two.
  KernelPlan p1 = permuteCopy({4096, 4096}, {1, 0}, 4);
  ASSERT_TRUE(p1.streamingStores);
  EXPECT_EQ(p1.streamLines, TargetInfo().streamLines);
  TransposeTiling t1 = transposeTiling(p1);
  EXPECT_EQ(t1.width, 16);
  EXPECT_EQ(t1.streamWidth, 32);
  // Chunks along b hold whole pairs.
  EXPECT_EQ(chunkGrain(p1) % 32, 0);
  EXPECT_EQ(llvm::divideCeil(4096, chunkGrain(p1)), p1.chunks);
  // AVX-512: two 16x16 squares side by side.
  TargetInfo avx512;
  avx512.vectorRegisters = 32;
  TransposeTiling wide =
      transposeTiling(permuteCopy({4096, 4096}, {1, 0}, 4, 0, avx512));
  EXPECT_EQ(wide.edge, 16);
  EXPECT_EQ(wide.streamWidth, 32);
  // f64 (4x4 squares, 8 per line) and f32 -> f16 (8x8, 32 halves a line).
  EXPECT_EQ(transposeTiling(permuteCopy({4096, 2048}, {1, 0}, 8)).streamWidth,
            16);
  EXPECT_EQ(transposeTiling(permuteCopy({16, 64, 112, 112}, {0, 2, 3, 1}, 4, 2))
                .streamWidth,
            64);
  // f16 takes pairs with AVX2 but not with 32 registers, whose tiles load
  // every source line whole for one line of each destination row.
  EXPECT_EQ(permuteCopy({8192, 4096}, {1, 0}, 2).streamLines,
            TargetInfo().streamLines);
  KernelPlan lanes = permuteCopy({8192, 4096}, {1, 0}, 2, 0, avx512);
  EXPECT_EQ(lanes.streamLines, 1);
  EXPECT_EQ(transposeTiling(lanes).streamWidth, 32);
  // i8 pairs would take 16 squares: one line.
  TransposeTiling bytes = transposeTiling(permuteCopy({8192, 8192}, {1, 0}, 1));
  EXPECT_EQ(bytes.streamWidth, bytes.width);
  // In cache, and with destination rows shorter than two lines, one.
  KernelPlan cached = permuteCopy({256, 256}, {1, 0}, 4);
  EXPECT_FALSE(cached.streamingStores);
  EXPECT_EQ(transposeTiling(cached).streamWidth, 16);
  TransposeTiling p9 = transposeTiling(
      permuteCopy({16, 16, 16, 16, 16, 16}, {5, 3, 1, 0, 2, 4}, 4));
  EXPECT_EQ(p9.streamWidth, 16);
  // Skewed tiles (rows not a whole number of lines apart) stay as they are.
  TransposeTiling odd = transposeTiling(permuteCopy({4095, 4097}, {1, 0}, 4));
  EXPECT_TRUE(odd.skewed);
  EXPECT_EQ(odd.streamWidth, odd.width);
  // A split along b that pairs would leave with half as many chunks, and
  // fewer than 16, takes single lines: 128 floats per destination row are 8
  // lines, 8 chunks of one rather than 4 of a pair. 2112 floats (132 lines)
  // pair in 14 chunks (15 of single lines).
  KernelPlan many = permuteCopy({2112, 2048}, {1, 0}, 4);
  EXPECT_EQ(many.streamLines, TargetInfo().streamLines);
  EXPECT_EQ(many.chunks, 14);
  KernelPlan rows = permuteCopy({128, 1 << 18}, {1, 0}, 4);
  ASSERT_TRUE(rows.streamingStores);
  EXPECT_EQ(rows.parallelLoop, 1);
  EXPECT_EQ(rows.streamLines, 1);
  EXPECT_EQ(rows.chunks, 8);
  EXPECT_EQ(transposeTiling(rows).streamWidth, 16);
}

TEST(KernelPlan, VectorWidthFollowsTarget) {
  TargetInfo wide;
  wide.vectorBytes = 64;
  KernelPlan p = permuteCopy({64, 64}, {1, 0}, 4, 0, wide);
  EXPECT_EQ(p.vectorWidth, 16);
  // The tile follows the registers, not the vector width.
  EXPECT_EQ(tileOf(p), (std::vector<int64_t>{8, 8}));
  // f64: 4 per AVX2 vector, a 4 x 4 tile.
  KernelPlan d = permuteCopy({64, 64}, {1, 0}, 8);
  EXPECT_EQ(d.vectorWidth, 4);
  EXPECT_EQ(tileOf(d), (std::vector<int64_t>{4, 4}));
}

TEST(KernelPlan, TileFollowsVectorRegisters) {
  TargetInfo avx512;
  avx512.vectorRegisters = 32;
  // 4-byte copies: 16 x 16, every row of the tile one whole line.
  KernelPlan p1 = permuteCopy({4096, 4096}, {1, 0}, 4, 0, avx512);
  EXPECT_EQ(p1.vectorWidth, 8);
  EXPECT_EQ(tileOf(p1), (std::vector<int64_t>{16, 16}));
  TransposeTiling t = transposeTiling(p1);
  EXPECT_EQ(t.edge, 16);
  EXPECT_EQ(t.width, 16);
  EXPECT_TRUE(t.wholeLines);
  // Shorter loops still clamp the tile. 4-byte squares keep their edge down
  // to half of it (12 of 16: one masked square); shorter ones narrow to a
  // power of two.
  KernelPlan narrow = permuteCopy({4096, 2, 12}, {2, 1, 0}, 4, 0, avx512);
  EXPECT_EQ(tileOf(narrow), (std::vector<int64_t>{12, 16}));
  EXPECT_EQ(transposeTiling(narrow).edge, 16);
  EXPECT_TRUE(transposeTiling(narrow).maskedEdges);
  KernelPlan narrower = permuteCopy({4096, 2, 7}, {2, 1, 0}, 4, 0, avx512);
  EXPECT_EQ(transposeTiling(narrower).edge, 4);
  // Other widths and conversions keep the AVX2 tile.
  EXPECT_EQ(tileOf(permuteCopy({8192, 4096}, {1, 0}, 2, 0, avx512)),
            (std::vector<int64_t>{8, 8}));
  EXPECT_EQ(tileOf(permuteCopy({512, 512}, {1, 0}, 8, 0, avx512)),
            (std::vector<int64_t>{4, 4}));
  EXPECT_EQ(transposeTiling(
                permuteCopy({16, 64, 112, 112}, {0, 2, 3, 1}, 4, 2, avx512))
                .edge,
            8);
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
