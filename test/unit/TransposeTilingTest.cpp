//===- TransposeTilingTest.cpp - Transpose tiling and streaming stores ----===//
//
// How the planner tiles transposes for the reference target (and AVX-512):
// the loop order around the tile, staged rows, rows first in cache, the
// streaming-store threshold and whole lines, skewed and paired-line tiles,
// the tiling the backend emits, vector widths and register tiles. The bench
// cases' plans: KernelPlanTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "KernelPlanTest.h"

#include "llvm/Support/MathExtras.h"

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
  // f16 takes pairs with AVX2; with 32 registers, whose tiles load every
  // source line whole for one line of each destination row, it takes the
  // target's lanesStreamLines: one by default, two tiles side by side with 2.
  EXPECT_EQ(permuteCopy({8192, 4096}, {1, 0}, 2).streamLines,
            TargetInfo().streamLines);
  KernelPlan lanes = permuteCopy({8192, 4096}, {1, 0}, 2, 0, avx512);
  EXPECT_EQ(lanes.streamLines, 1);
  EXPECT_EQ(transposeTiling(lanes).streamWidth, 32);
  TargetInfo pairedLanes = avx512;
  pairedLanes.lanesStreamLines = 2;
  pairedLanes.streamLines = 1;
  KernelPlan paired = permuteCopy({8192, 4096}, {1, 0}, 2, 0, pairedLanes);
  EXPECT_EQ(paired.streamLines, 2);
  EXPECT_EQ(transposeTiling(paired).streamWidth, 64);
  // f32's 16x16 squares keep streamLines.
  EXPECT_EQ(permuteCopy({4096, 4096}, {1, 0}, 4, 0, pairedLanes).streamLines,
            1);
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
