//===- RuntimeTransposes.cpp - Transposes with run-time extents ----------===//
//
// Run-time-extent mode's transposes (docs/internals/runtime-extents.md):
// the loops around each a x b plane, interleaving loops for short b rows
// (NCHW -> NHWC) picked at run time, square register tiles a destination
// line wide (transposeSquare), half squares and masked or scalar edges,
// non-temporal stores where the extents say and the rows are aligned.
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/SaveAndRestore.h"

#include <functional>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

//===----------------------------------------------------------------------===//
// Transposes
//===----------------------------------------------------------------------===//

/// The conjunction of `conds` (at least one).
static Value allOf(Emitter &e, ArrayRef<Value> conds) {
  Value r = conds.front();
  for (Value c : conds.drop_front())
    r = arith::AndIOp::create(e.b, r, c);
  return r;
}

/// The loops other than a and b run around the plane in the plan's order.
void KernelBuilder::rtTranspose() {
  auto [a, bl] = *k.plan.tiledLoops;
  // The loops around the planes walk the source in its order, as the
  // static tiling's outside loops do (of the plan's representative
  // sizes), so that consecutive planes read nearby source blocks; the loop
  // that continues b's destination rows runs innermost, as the static one
  // does where rows are a line or shorter (whether they are is known only
  // at run time; elsewhere the next plane's rows start where these end).
  SmallVector<int64_t> outside;
  for (int64_t i = 0; i < static_cast<int64_t>(k.plan.loops.size()); ++i)
    if (i != a && i != bl)
      outside.push_back(i);
  sortBySourceStride(k.plan, outside);
  continueRowsLast(k.plan, outside);
  rtPlane(outside);
}

/// The stack buffer of skewed tiles' window, or of staged rows' block, a
/// partial line before it and a line's room for the carry's load after it,
/// in the function being built.
void KernelBuilder::rtSkewBuffer() {
  int64_t n = k.plan.squareEdge;
  TargetInfo target = cpuTarget(/*avx512=*/false);
  int64_t elements = n * skewBlocks(n) * skewBufferRow(target.skewLines);
  if (rtMayStage())
    elements = std::max(elements, target.stageBytes / dst.bytes +
                                      2 * lineElements(dst.bytes));
  skewBuffer = LLVM::AllocaOp::create(e.b, e.ptr, dst.mem, e.c64(elements),
                                      kCacheLineBytes);
}

void KernelBuilder::rtOuterLoops(ArrayRef<int64_t> loops, size_t depth, Value s,
                                 Value d,
                                 function_ref<void(Value, Value)> body) {
  if (depth == loops.size())
    return body(s, d);
  int64_t l = loops[depth];
  Range r = rtRange(l);
  e.forLoop(r.lo, r.hi, 1, [&](Value i) {
    rtOuterLoops(loops, depth + 1, e.add(s, scaled(i, l, true)),
                 e.add(d, scaled(i, l, false)), body);
  });
}

/// The planes, in the loops around them. Where b is not split and runs 2,
/// 3 or 4 long (fewer than a square's edge) directly inside a in the
/// destination (NCHW -> NHWC), checked at run time once per chunk: rows
/// interleaved into one store; else skewed tiles, staged rows or tiles
/// (rtTiles) within bounds computed once per chunk. Each is a function of
/// its own (rtVariant). Where b's size is the same for every size, only
/// its interleave is compiled, and where a's destination stride is that
/// size too, nothing else (`?x3x?x?` to NHWC: one plane variant).
void KernelBuilder::rtPlane(ArrayRef<int64_t> outside) {
  auto [a, bl] = *k.plan.tiledLoops;
  int64_t n = k.plan.squareEdge;
  auto known = [](ArrayRef<std::optional<int64_t>> v, int64_t l) {
    return l < static_cast<int64_t>(v.size()) ? v[l] : std::nullopt;
  };
  std::optional<int64_t> sizeB = known(rtStaticSizes, bl),
                         strideA = known(rtStaticDstStrides, a);
  SmallVector<int64_t> ms;
  if (rtParallelLoop() != bl && k.plan.vectorWidth > 1)
    for (int64_t m = 2; m <= 4 && m < n; ++m)
      if (!sizeB || *sizeB == m)
        ms.push_back(m);
  bool always = ms.size() == 1 && sizeB == ms[0] && strideA == ms[0];
  auto planes = [&](function_ref<void(Value, Value)> body) {
    rtOuterLoops(outside, 0, e.c64(0), e.c64(0), body);
  };
  std::function<void(size_t)> dispatch = [&](size_t i) {
    if (i == ms.size()) {
      auto tiles = [&] {
        auto plain = [&] {
          rtVariant("tiles", [&] {
            rtPanels([&] {
              rtPlaneBounds();
              planes([&](Value s, Value d) { rtTiles(s, d); });
            });
          });
        };
        std::optional<int64_t> inner = rtBlocksLoop(outside);
        if (!inner)
          return plain();
        e.ifElse(
            rtBlocksApply(*inner),
            [&] { rtVariant("blocks", [&] { rtBlocks(outside, *inner); }); },
            plain);
      };
      auto unskewed = [&] {
        if (!rtMayStage())
          return tiles();
        e.ifElse(
            rtStages(),
            [&] {
              rtVariant("staged", [&] {
                rtSkewBuffer();
                planes([&](Value s, Value d) { rtStaged(s, d); });
              });
            },
            tiles);
      };
      if (!rtMaySkew())
        return tiles();
      return e.ifElse(
          rtSkews(),
          [&] {
            rtVariant("skewed", [&] {
              rtSkewBuffer();
              planes([&](Value s, Value d) { rtSkewed(s, d); });
            });
          },
          unskewed);
    }
    auto interleave = [&] {
      rtVariant(("interleave" + Twine(ms[i])).str(), [&] {
        planes([&](Value s, Value d) { rtInterleave(s, d, ms[i]); });
      });
    };
    if (always)
      return interleave();
    Value fits = arith::AndIOp::create(
        e.b,
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, rtSizes[bl],
                              e.c64(ms[i])),
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, rtDstStrides[a],
                              e.c64(ms[i])));
    e.ifElse(fits, interleave, [&] { dispatch(i + 1); });
  };
  dispatch(0);
}

/// Elements of b that a chunk boundary must not cut when a transpose
/// splits b: whole destination lines; for skewed tiles (streaming
/// traffic, destination rows not a whole number of lines apart) the
/// planner's skewChunkLines of them, a power of two from 1 to skewChunks
/// lines, about b / skewChunks lines, so that each chunk's rows stream
/// all but their edge lines.
Value KernelBuilder::rtSplitUnitOfB(const KernelExtents &x, Value elements) {
  auto [a, bl] = *k.plan.tiledLoops;
  int64_t line = lineElements(dst.bytes);
  if (!rtMaySkew())
    return e.c64(line);
  TargetInfo target = cpuTarget(/*avx512=*/false);
  auto cmp = [&](arith::CmpIPredicate p, Value x, int64_t y) {
    return arith::CmpIOp::create(e.b, p, x, e.c64(y)).getResult();
  };
  Value big = rtStreamingTraffic(elements);
  Value unaligned = rtRowsOffLines(x.dstStrides[a]);
  Value perChunk =
      arith::DivSIOp::create(e.b, x.sizes[bl], e.c64(line * target.skewChunks));
  Value lines = e.c64(1);
  for (int64_t p = 2; p <= target.skewChunks; p *= 2)
    lines = arith::SelectOp::create(
        e.b, cmp(arith::CmpIPredicate::sge, perChunk, p), e.c64(p), lines);
  lines = arith::SelectOp::create(
      e.b, arith::AndIOp::create(e.b, big, unaligned), lines, e.c64(1));
  return e.mulc(lines, line);
}

/// Whether destination rows `dstStride` elements apart are not a whole
/// number of lines apart (their lines start at different offsets).
Value KernelBuilder::rtRowsOffLines(Value dstStride) {
  return arith::CmpIOp::create(
      e.b, arith::CmpIPredicate::ne,
      arith::AndIOp::create(e.b, e.mulc(dstStride, dst.bytes),
                            e.c64(kCacheLineBytes - 1)),
      e.c64(0));
}

/// Whether the kernel has skewed tiles for streaming transposes whose
/// destination rows are not a whole number of lines apart (rtSkews
/// decides per chunk).
bool KernelBuilder::rtMaySkew() const { return k.plan.vectorWidth > 1; }

/// The planner's rule for skewed tiles (TransposeTiling::skewed), on the
/// extents, once per chunk: stores stream, destination rows are not a
/// whole number of lines apart, the chunk's b spans 4 lines or more, and
/// the source rows are long enough to prefetch along (longRunBytes) or
/// the skewed window is a small block of rows (skewWindowBytes).
Value KernelBuilder::rtSkews() {
  auto [a, bl] = *k.plan.tiledLoops;
  TargetInfo target = cpuTarget(/*avx512=*/false);
  int64_t line = lineElements(dst.bytes);
  Range rb = rtRange(bl);
  auto cmp = [&](arith::CmpIPredicate p, Value x, int64_t y) {
    return arith::CmpIOp::create(e.b, p, x, e.c64(y)).getResult();
  };
  Value unaligned = rtRowsOffLines(rtDstStrides[a]);
  Value wide = cmp(arith::CmpIPredicate::sge,
                   arith::SubIOp::create(e.b, rb.hi, rb.lo), 4 * line);
  Value longRows = cmp(arith::CmpIPredicate::sge, e.mulc(rtSizes[a], src.bytes),
                       target.longRunBytes);
  Value sb = rtSrcStrides[bl];
  Value absSb =
      arith::SelectOp::create(e.b, cmp(arith::CmpIPredicate::slt, sb, 0),
                              arith::SubIOp::create(e.b, e.c64(0), sb), sb);
  Value smallWindow =
      cmp(arith::CmpIPredicate::sle,
          e.mulc(absSb, (target.skewLines + 1) * line * src.bytes),
          target.skewWindowBytes);
  return allOf(e, {rtStream, unaligned, wide,
                   arith::OrIOp::create(e.b, longRows, smallWindow)});
}

/// Skewed tiles (skewedTiles) with run-time strides; masked squares or
/// elements (rtEdge) at the edges. Their loads prefetch rowPrefetchBytes
/// ahead along the rows, as the static skewed tiles' do along long rows
/// (here for every length: a prefetch past a short row's end only warms
/// what a later window reads, and faults on nothing).
void KernelBuilder::rtSkewed(Value s, Value d) {
  auto [a, bl] = *k.plan.tiledLoops;
  usesStreaming = true;
  llvm::SaveAndRestore<int64_t> ahead(prefetchAhead,
                                      cpu().tuning.rowPrefetchBytes);
  int64_t n = k.plan.squareEdge;
  Range ra = rtRange(a), rb = rtRange(bl);
  Value sb = rtSrcStrides[bl], da = rtDstStrides[a];
  auto rect = [&](Value s, Value d, Value a0, Value a1, Value b0, Value b1) {
    e.forLoop(a0, a1, n, [&](Value ia) {
      Value rows = e.minI(e.c64(n), arith::SubIOp::create(e.b, a1, ia));
      e.forLoop(b0, b1, n, [&](Value ib) {
        Value cols = e.minI(e.c64(n), arith::SubIOp::create(e.b, b1, ib));
        rtEdge(s, d, ia, ib, n, rows, cols);
      });
    });
  };
  skewedTiles(
      s, d, n, cpuTarget(/*avx512=*/false).skewLines, ra, rb,
      [&](Value i) { return e.mul(i, sb); },
      [&](Value i) { return e.mul(i, da); },
      [&](Value s, Value d, function_ref<void(Value, Value)> body) {
        body(s, d);
      },
      [&](Value s, Value d, Value aFull, Value windowsEnd) {
        rect(s, d, ra.lo, aFull, windowsEnd, rb.hi);
        rect(s, d, aFull, ra.hi, rb.lo, rb.hi);
      },
      /*rowLoop=*/true);
}

/// Whether the kernel has staged rows (rtStages decides per chunk): they
/// need each chunk's rows whole along b, as the planner's do, and b's
/// destination stride 1.
bool KernelBuilder::rtMayStage() const {
  auto [a, bl] = *k.plan.tiledLoops;
  return rtMaySkew() && rtParallelLoop() != bl &&
         staticStride(bl, /*source=*/false) == std::optional<int64_t>(1) &&
         !staticStride(a, /*source=*/false);
}

/// Rows per staged block: a tile's (the static tileRows).
int64_t KernelBuilder::rtStageRows() const {
  return k.plan.squareEdge * lineBlocks(k.plan.squareEdge);
}

/// The planner's rule for staged rows (TransposeTiling::staged), on the
/// extents, once per chunk, where the tiles do not skew: stores stream,
/// destination rows are not a whole number of lines apart but adjacent
/// (a's destination stride is b's size), b has no partial square unless
/// its edges are masked, and a block of rows spans from two lines to the
/// target's stageBytes.
Value KernelBuilder::rtStages() {
  auto [a, bl] = *k.plan.tiledLoops;
  int64_t n = k.plan.squareEdge;
  auto cmp = [&](arith::CmpIPredicate p, Value x, int64_t y) {
    return arith::CmpIOp::create(e.b, p, x, e.c64(y)).getResult();
  };
  Value blockBytes = e.mulc(rtSizes[bl], rtStageRows() * dst.bytes);
  SmallVector<Value> conds = {
      rtStream, rtRowsOffLines(rtDstStrides[a]),
      arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, rtDstStrides[a],
                            rtSizes[bl]),
      cmp(arith::CmpIPredicate::sge, blockBytes, 2 * kCacheLineBytes),
      cmp(arith::CmpIPredicate::sle, blockBytes,
          cpuTarget(/*avx512=*/false).stageBytes)};
  if (src.bytes < 4 || dst.bytes < 4)
    conds.push_back(cmp(arith::CmpIPredicate::eq,
                        arith::RemSIOp::create(e.b, rtSizes[bl], e.c64(n)), 0));
  return allOf(e, conds);
}

/// Staged rows (emitStaged) with run-time strides: each whole block's
/// squares along b and the columns past the last square (rtEdge).
void KernelBuilder::rtStaged(Value s, Value d) {
  auto [a, bl] = *k.plan.tiledLoops;
  usesStreaming = true;
  int64_t n = k.plan.squareEdge, aBlocks = lineBlocks(n);
  Range rb = rtRange(bl);
  Value bFull = floorTo(rb.lo, rb.hi, n);
  Value cols = arith::SubIOp::create(e.b, rb.hi, bFull);
  Value sb = rtSrcStrides[bl], da = rtDstStrides[a];
  emitStaged(
      s, d, rtStageRows(), [&](Value i) { return e.mul(i, da); }, rtRange(a),
      [&](Value s, Value d, Range r, bool whole) {
        // The last block, under a tile's rows: element by element (less
        // code to compile than squares).
        if (!whole)
          return e.forLoop(r.lo, r.hi, 1, [&](Value ia) {
            e.forLoop(rb.lo, rb.hi, 1, [&](Value ib) {
              Value v = e.load(src.mem, srcPtr, src.mem,
                               e.add(e.add(s, ia), e.mul(ib, sb)));
              e.store(e.convert(v, src, dst), dstPtr, dst.mem,
                      e.add(e.add(d, ib), e.mul(ia, da)));
            });
          });
        e.forLoop(rb.lo, bFull, n, [&](Value ib) {
          if (aBlocks > 1)
            return rtSquaresAlongA(s, d, r.lo, ib, n, 1, aBlocks);
          rtMicro(s, d, r.lo, ib, n, 1, /*streaming=*/false);
        });
        ifPositive(cols, [&] {
          for (int64_t ab = 0; ab < aBlocks; ++ab)
            rtEdge(s, d, e.add(r.lo, e.c64(ab * n)), bFull, n, e.c64(n), cols);
        });
      });
}

/// b of m (static here) elements right inside a in the destination: per
/// vector of a indices, m source rows, interleaved into one store of m
/// vectors; the rest of a element by element.
void KernelBuilder::rtInterleave(Value s, Value d, int64_t m) {
  auto [a, bl] = *k.plan.tiledLoops;
  int64_t vw = k.plan.vectorWidth;
  Range ra = rtRange(a);
  Value sb = rtSrcStrides[bl];
  Value full = floorTo(ra.lo, ra.hi, vw);
  Type vt = e.vecOf(src.mem, vw);
  SmallVector<Value> rowStarts;
  for (int64_t j = 0; j < m; ++j)
    rowStarts.push_back(e.add(s, e.mulc(sb, j)));
  // Streaming stores go out as m pieces of vw elements, aligned to their
  // size when the first one is (x86 streams only aligned stores).
  auto loop = [&](bool streaming) {
    e.forLoop(ra.lo, full, vw, [&](Value ia) {
      Value all;
      int64_t width = 0;
      for (int64_t j = 0; j < m; ++j) {
        Value row = e.load(vt, srcPtr, src.mem, e.add(rowStarts[j], ia));
        if (!all) {
          all = row;
        } else {
          SmallVector<int64_t> cat;
          for (int64_t c = 0; c < width + vw; ++c)
            cat.push_back(c);
          all = e.shuffle(all, row, cat);
        }
        width += vw;
      }
      SmallVector<int64_t> mask;
      for (int64_t i = 0; i < vw; ++i)
        for (int64_t j = 0; j < m; ++j)
          mask.push_back(j * vw + i);
      Value out =
          e.convert(vector::ShuffleOp::create(e.b, all, all, mask), src, dst);
      Value at = e.add(d, e.mulc(ia, m));
      if (!streaming)
        return e.store(out, dstPtr, dst.mem, at);
      for (int64_t q = 0; q < m; ++q) {
        SmallVector<int64_t> piece;
        for (int64_t c = 0; c < vw; ++c)
          piece.push_back(q * vw + c);
        e.store(vector::ShuffleOp::create(e.b, out, out, piece), dstPtr,
                dst.mem, e.add(at, e.c64(q * vw)), /*nontemporal=*/true);
      }
    });
  };
  usesStreaming = true;
  Value addr = LLVM::PtrToIntOp::create(
      e.b, e.i64, e.gep(dstPtr, dst.mem, e.add(d, e.mulc(ra.lo, m))));
  Value aligned = arith::CmpIOp::create(
      e.b, arith::CmpIPredicate::eq,
      arith::AndIOp::create(e.b, addr, e.c64(vw * dst.bytes - 1)), e.c64(0));
  e.ifElse(
      arith::AndIOp::create(e.b, rtStream, aligned), [&] { loop(true); },
      [&] { loop(false); });
  e.shortLoop(full, ra.hi, [&](Value ia) {
    for (int64_t j = 0; j < m; ++j) {
      Value v = e.load(src.mem, srcPtr, src.mem, e.add(rowStarts[j], ia));
      e.store(e.convert(v, src, dst), dstPtr, dst.mem,
              e.add(d, e.add(e.mulc(ia, m), e.c64(j))));
    }
  });
}

/// Tiles of a plane: columns of tiles a line of destination elements wide
/// (whole squares), walked down a, whose rows stream where the extents say
/// and the rows are line-aligned (checked per column); then single
/// squares; then the columns past the last square. Rows past the last
/// square along a are partial squares.
void KernelBuilder::rtPlaneBounds() {
  auto [a, bl] = *k.plan.tiledLoops;
  int64_t n = k.plan.squareEdge;
  int64_t blocks = std::clamp<int64_t>(lineElements(dst.bytes) / n, 1, 4);
  Range ra = rtRange(a), rb = rtRange(bl);
  auto &pb = rtBounds;
  pb.aFull = floorTo(ra.lo, ra.hi, n);
  if (lanesTile(n, blocks) && lineBlocks(n) > 1)
    pb.aLanes = floorTo(ra.lo, ra.hi, n * lineBlocks(n));
  // Source rows 1 KiB apart (or a multiple) crowd 4 or fewer L1 sets: a
  // tile's rows evict each other before the next tile down a reads the
  // rest of their lines.
  // Elsewhere the wide tiles' range is empty, so that one loop nest serves
  // both (half the code to compile).
  pb.crowded = arith::CmpIOp::create(
      e.b, arith::CmpIPredicate::eq,
      arith::AndIOp::create(e.b, e.mulc(rtSrcStrides[bl], src.bytes),
                            e.c64(1023)),
      e.c64(0));
  pb.aWide = arith::SelectOp::create(
      e.b, pb.crowded, floorTo(ra.lo, ra.hi, n * lineBlocks(n)), ra.lo);
  // In L2, destination rows 1 KiB apart (or a multiple) share L1 sets as
  // much as crowded source rows do: the whole squares go along b first, a
  // row of tiles at a time (the static TransposeTiling::rowsFirst), and
  // the columns below keep only their edges.
  Value elements = e.product(rtSizes);
  Value inL2 = arith::CmpIOp::create(e.b, arith::CmpIPredicate::sle,
                                     e.mulc(elements, src.bytes + dst.bytes),
                                     e.c64(cpu().l2Bytes));
  Value dstCrowded = arith::CmpIOp::create(
      e.b, arith::CmpIPredicate::eq,
      arith::AndIOp::create(e.b, e.mulc(rtDstStrides[a], dst.bytes),
                            e.c64(1023)),
      e.c64(0));
  pb.rowsFirst = arith::AndIOp::create(
      e.b, arith::AndIOp::create(e.b, inL2, dstCrowded), pb.crowded);
  pb.aColumns = arith::SelectOp::create(e.b, pb.rowsFirst, ra.lo, pb.aFull);
  pb.aWide = arith::SelectOp::create(e.b, pb.rowsFirst, ra.lo, pb.aWide);
  pb.rowsLeft = arith::SubIOp::create(e.b, ra.hi, pb.aFull);
  // Destination rows a whole number of lines apart.
  pb.rowsAligned = arith::AndIOp::create(
      e.b, rtStream, e.not_(rtRowsOffLines(rtDstStrides[a])));
  pb.bWide = blocks > 1 ? floorTo(rb.lo, rb.hi, n * blocks) : rb.lo;
  pb.bFull = floorTo(pb.bWide, rb.hi, n);
  int64_t half = std::max<int64_t>(n / 2, 1);
  pb.halfEnd = floorTo(pb.bFull, rb.hi, half);
  pb.aHalf = floorTo(ra.lo, ra.hi, half);
  pb.halfRows = arith::SubIOp::create(e.b, ra.hi, pb.aHalf);
  pb.colsLeft =
      arith::SubIOp::create(e.b, rb.hi, half >= 2 ? pb.halfEnd : pb.bFull);
}

void KernelBuilder::rtTiles(Value s, Value d) {
  auto [a, bl] = *k.plan.tiledLoops;
  int64_t n = k.plan.squareEdge;
  int64_t blocks = std::clamp<int64_t>(lineElements(dst.bytes) / n, 1, 4);
  bool lineRows = blocks * n * dst.bytes == kCacheLineBytes;
  Range ra = rtRange(a), rb = rtRange(bl);
  const auto &pb = rtBounds;
  // Whether the column of tiles from ib streams: its first destination
  // line is aligned, and so are the others (rows a whole number of lines
  // apart).
  auto streamsFrom = [&](Value ib) {
    Value addr = LLVM::PtrToIntOp::create(
        e.b, e.i64,
        e.gep(dstPtr, dst.mem,
              e.add(e.add(d, ib), e.mul(ra.lo, rtDstStrides[a]))));
    Value aligned = arith::CmpIOp::create(
        e.b, arith::CmpIPredicate::eq,
        arith::AndIOp::create(e.b, addr, e.c64(kCacheLineBytes - 1)), e.c64(0));
    return arith::AndIOp::create(e.b, pb.rowsAligned, aligned).getResult();
  };
  auto column = [&](Value ib, int64_t blk) {
    auto tiles = [&](bool streaming) {
      int64_t aBlocks = lineBlocks(n);
      if (streaming) {
        // Squares of 16-byte rows take whole source lines in one tile
        // (streamingLanes): read a square at a time, lines of rows that
        // share an L1 set come back from L2 for every square.
        Value from = ra.lo;
        if (lanesTile(n, blk) && aBlocks > 1) {
          from = pb.aLanes;
          e.forLoop(ra.lo, pb.aLanes, n * aBlocks,
                    [&](Value ia) { rtLanes(s, d, ia, ib, n, blk, aBlocks); });
        }
        return e.forLoop(from, pb.aFull, n, [&](Value ia) {
          rtMicro(s, d, ia, ib, n, blk, streaming);
        });
      }
      if (aBlocks > 1)
        e.forLoop(ra.lo, pb.aWide, n * aBlocks, [&](Value ia) {
          rtSquaresAlongA(s, d, ia, ib, n, blk, aBlocks);
        });
      e.forLoop(aBlocks > 1 ? pb.aWide : ra.lo, pb.aColumns, n,
                [&](Value ia) { rtMicro(s, d, ia, ib, n, blk, false); });
    };
    if (blk % blocks == 0 && lineRows) {
      usesStreaming = true;
      e.ifElse(
          streamsFrom(ib), [&] { tiles(true); }, [&] { tiles(false); });
    } else {
      tiles(false);
    }
    ifPositive(pb.rowsLeft, [&] {
      e.forLoop(e.c64(0), e.c64(blk * n), n, [&](Value j) {
        rtEdge(s, d, pb.aFull, e.add(ib, j), n, pb.rowsLeft, e.c64(n));
      });
    });
  };
  // Rows of whole squares first where rowsFirst (stores never stream in
  // L2); pb.aColumns then leaves the columns their edges only.
  e.ifElse(
      pb.rowsFirst,
      [&] {
        e.forLoop(ra.lo, pb.aFull, n, [&](Value ia) {
          if (blocks > 1)
            e.forLoop(rb.lo, pb.bWide, n * blocks, [&](Value ib) {
              rtMicro(s, d, ia, ib, n, blocks, false);
            });
          e.forLoop(pb.bWide, pb.bFull, n,
                    [&](Value ib) { rtMicro(s, d, ia, ib, n, 1, false); });
        });
      },
      [] {});
  // Streaming columns store the preset's lines of each destination row
  // (targetStreamLines, the static TransposeTiling::streamWidth): the
  // memory then sees runs of lines rather than single lines scattered one
  // per row. Their range is empty where the columns do not stream.
  Value bLines = rb.lo;
  int64_t lines = targetStreamLines(cpuTarget(cpu().vectorRegisters >= 32), n,
                                    src.bytes, dst.bytes);
  if (lineRows && lines > 1) {
    bLines = arith::SelectOp::create(e.b, streamsFrom(rb.lo),
                                     floorTo(rb.lo, rb.hi, n * blocks * lines),
                                     rb.lo);
    e.forLoop(rb.lo, bLines, n * blocks * lines,
              [&](Value ib) { column(ib, blocks * lines); });
  }
  if (blocks > 1)
    e.forLoop(bLines, pb.bWide, n * blocks,
              [&](Value ib) { column(ib, blocks); });
  e.forLoop(blocks > 1 ? pb.bWide : bLines, pb.bFull, n,
            [&](Value ib) { column(ib, 1); });
  rtNarrowColumns(s, d);
}

/// The columns of a plane past its whole squares along b (rtTiles): half
/// squares where half an edge or more is left, quarter squares where a
/// quarter is (4-byte types with AVX-512), and partial squares (rtEdge) for
/// the rest.
void KernelBuilder::rtNarrowColumns(Value s, Value d) {
  auto [a, bl] = *k.plan.tiledLoops;
  int64_t n = k.plan.squareEdge;
  Range ra = rtRange(a), rb = rtRange(bl);
  const auto &pb = rtBounds;
  // Half a square's edge or more left along b: a column of half squares.
  int64_t half = n / 2;
  Value edgeStart = pb.bFull;
  if (half >= 2) {
    e.forLoop(pb.bFull, pb.halfEnd, half, [&](Value ib) {
      e.forLoop(ra.lo, pb.aHalf, half, [&](Value ia) {
        rtMicro(s, d, ia, ib, half, 1, /*streaming=*/false);
      });
      ifPositive(pb.halfRows, [&] {
        rtEdge(s, d, pb.aHalf, ib, half, pb.halfRows, e.c64(half));
      });
    });
    edgeStart = pb.halfEnd;
  }
  // A quarter of the edge or more left, where that is 4 or more (4-byte
  // types with AVX-512): a column of quarter squares, so that short planes
  // (P9's 8 x 4) move in whole squares rather than a masked one.
  int64_t quarter = n / 4;
  Value colsLeft = pb.colsLeft;
  bool quarters = quarter >= 4 && src.bytes >= 4 && dst.bytes >= 4;
  if (quarters) {
    Value quarterEnd = floorTo(edgeStart, rb.hi, quarter);
    Value aEnd = floorTo(ra.lo, ra.hi, quarter);
    Value rowsLeft = arith::SubIOp::create(e.b, ra.hi, aEnd);
    e.forLoop(edgeStart, quarterEnd, quarter, [&](Value ib) {
      e.forLoop(ra.lo, aEnd, quarter, [&](Value ia) {
        rtMicro(s, d, ia, ib, quarter, 1, /*streaming=*/false);
      });
      ifPositive(rowsLeft, [&] {
        rtEdge(s, d, aEnd, ib, quarter, rowsLeft, e.c64(quarter));
      });
    });
    edgeStart = quarterEnd;
    colsLeft = arith::SubIOp::create(e.b, rb.hi, quarterEnd);
  }
  auto edgeColumn = [&](int64_t m) {
    e.forLoop(ra.lo, ra.hi, m, [&](Value ia) {
      Value rows = e.minI(e.c64(m), arith::SubIOp::create(e.b, ra.hi, ia));
      rtEdge(s, d, ia, edgeStart, m, rows, colsLeft);
    });
  };
  ifPositive(colsLeft, [&] {
    if (quarters)
      return edgeColumn(quarter);
    if (half < 4 || src.bytes < 4 || dst.bytes < 4)
      return edgeColumn(n);
    Value narrow = arith::CmpIOp::create(e.b, arith::CmpIPredicate::sle,
                                         colsLeft, e.c64(half));
    e.ifElse(
        narrow, [&] { edgeColumn(half); }, [&] { edgeColumn(n); });
  });
}

/// The n x n square whose first source row starts at element `at` plus
/// `firstRow` rows, loaded a row per vector and transposed in registers.
SmallVector<Value> KernelBuilder::rtSquare(Value at, int64_t firstRow,
                                           int64_t n) {
  Type vt = e.vecOf(src.mem, n);
  Value sb = rtSrcStrides[k.plan.tiledLoops->second];
  SmallVector<Value> rows;
  for (int64_t j = 0; j < n; ++j)
    rows.push_back(
        e.load(vt, srcPtr, src.mem, e.add(at, e.mulc(sb, firstRow + j))));
  return transposeSquare(std::move(rows));
}

/// `blocks` n x n squares side by side along b at (ia, ib), each transposed
/// in registers; each destination row stores once. Whole squares (the
/// plan's edge) are calls (rtOutline): one per square where stores are
/// normal, one per tile where they stream.
void KernelBuilder::rtMicro(Value s, Value d, Value ia, Value ib, int64_t n,
                            int64_t blocks, bool streaming) {
  auto [a, bl] = *k.plan.tiledLoops;
  Value sb = rtSrcStrides[bl], da = rtDstStrides[a];
  Value base = e.add(e.add(s, ia), e.mul(ib, sb));
  Value out = e.add(e.add(d, ib), e.mul(ia, da));
  if (n != k.plan.squareEdge)
    return rtMicroAt(base, out, n, blocks, streaming);
  if (!streaming) {
    for (int64_t blk = 0; blk < blocks; ++blk)
      rtSquareAt(e.add(base, e.mulc(sb, blk * n)), e.add(out, e.c64(blk * n)),
                 n);
    return;
  }
  rtOutline(("lines" + Twine(blocks)).str(), e.gep(srcPtr, src.mem, base),
            e.gep(dstPtr, dst.mem, out), {}, [&](ValueRange) {
              rtMicroAt(e.c64(0), e.c64(0), n, blocks, /*streaming=*/true);
            });
}

/// The n x n square from source element `base` to destination element
/// `out`, stored normally: a call where it is a whole square (rtOutline).
void KernelBuilder::rtSquareAt(Value base, Value out, int64_t n) {
  if (n != k.plan.squareEdge)
    return rtMicroAt(base, out, n, 1, /*streaming=*/false);
  rtOutline("square", e.gep(srcPtr, src.mem, base), e.gep(dstPtr, dst.mem, out),
            {}, [&](ValueRange) {
              rtMicroAt(e.c64(0), e.c64(0), n, 1, /*streaming=*/false);
            });
}

/// rtMicro's squares from source element `base` to destination element
/// `out`, emitted in line.
void KernelBuilder::rtMicroAt(Value base, Value out, int64_t n, int64_t blocks,
                              bool streaming) {
  auto a = k.plan.tiledLoops->first;
  if (n * src.bytes >= 64)
    usesWideRegisters = true;
  Value da = rtDstStrides[a];
  SmallVector<SmallVector<Value>> cols;
  for (int64_t blk = 0; blk < blocks; ++blk)
    cols.push_back(rtSquare(base, blk * n, n));
  for (int64_t i = 0; i < n; ++i) {
    Value row = e.add(out, e.mulc(da, i));
    // Stores that stream go out a line at a time; the others a square's
    // row each, which spares the shuffles that would join them.
    if (!streaming) {
      for (int64_t blk = 0; blk < blocks; ++blk)
        e.store(e.convert(cols[blk][i], src, dst), dstPtr, dst.mem,
                e.add(row, e.c64(blk * n)));
      continue;
    }
    SmallVector<Value> parts;
    for (int64_t blk = 0; blk < blocks; ++blk)
      parts.push_back(cols[blk][i]);
    e.store(e.convert(concat(parts), src, dst), dstPtr, dst.mem, row,
            streaming);
  }
}

/// A (n * aBlocks) x (n * blocks) tile whose source rows crowd L1 sets: per
/// square along b, the aBlocks squares along a in turn, so that each
/// source line's parts are read back to back; each square stores its own
/// rows.
void KernelBuilder::rtSquaresAlongA(Value s, Value d, Value ia, Value ib,
                                    int64_t n, int64_t blocks,
                                    int64_t aBlocks) {
  auto [a, bl] = *k.plan.tiledLoops;
  Value sb = rtSrcStrides[bl], da = rtDstStrides[a];
  Value base = e.add(e.add(s, ia), e.mul(ib, sb));
  for (int64_t blk = 0; blk < blocks; ++blk)
    for (int64_t ab = 0; ab < aBlocks; ++ab)
      rtSquareAt(e.add(base, e.add(e.c64(ab * n), e.mulc(sb, blk * n))),
                 e.add(e.add(d, e.add(ib, e.c64(blk * n))),
                       e.mul(e.add(ia, e.c64(ab * n)), da)),
                 n);
}

/// The part of the square at (ia, ib) with `rows` (1 to n) a indices and
/// `cols` (1 to n) b indices: masked loads of a whole square's registers and
/// stores of each row's part in pieces (storeLanesBelow) where both types
/// are 4 or 8 bytes, else element by element.
void KernelBuilder::rtEdge(Value s, Value d, Value ia, Value ib, int64_t n,
                           Value rows, Value cols) {
  auto [a, bl] = *k.plan.tiledLoops;
  Value sb = rtSrcStrides[bl], da = rtDstStrides[a];
  if (src.bytes < 4 || dst.bytes < 4) {
    e.shortLoop(e.c64(0), rows, [&](Value i) {
      e.shortLoop(e.c64(0), cols, [&](Value j) {
        Value v =
            e.load(src.mem, srcPtr, src.mem,
                   e.add(e.add(s, e.add(ia, i)), e.mul(e.add(ib, j), sb)));
        e.store(e.convert(v, src, dst), dstPtr, dst.mem,
                e.add(e.add(d, e.add(ib, j)), e.mul(e.add(ia, i), da)));
      });
    });
    return;
  }
  if (n * src.bytes >= 64)
    usesWideRegisters = true;
  auto square = [&](Value s, Value d, Value ia, Value ib, Value rows,
                    Value cols) {
    maskedSquare(
        s, d, [&](Value i) { return e.mul(i, rtSrcStrides[bl]); },
        [&](Value i) { return e.mul(i, rtDstStrides[a]); }, ia, ib, n, rows,
        cols, /*pieceStores=*/true);
  };
  if (n != k.plan.squareEdge)
    return square(s, d, ia, ib, rows, cols);
  rtOutline("masked",
            e.gep(srcPtr, src.mem, e.add(e.add(s, ia), e.mul(ib, sb))),
            e.gep(dstPtr, dst.mem, e.add(e.add(d, ib), e.mul(ia, da))),
            {rows, cols}, [&](ValueRange p) {
              Value zero = e.c64(0);
              square(zero, zero, zero, zero, p[0], p[1]);
            });
}

/// streamingLanes with run-time strides: `aBlocks` x `blocks` squares of
/// 16-byte rows whose destination rows are whole lines.
void KernelBuilder::rtLanes(Value s, Value d, Value ia, Value ib, int64_t n,
                            int64_t blocks, int64_t aBlocks) {
  auto [a, bl] = *k.plan.tiledLoops;
  usesWideRegisters = true;
  Value sb = rtSrcStrides[bl], da = rtDstStrides[a];
  Value base = e.add(e.add(s, ia), e.mul(ib, sb));
  emitLanesTile(
      [&](int64_t row, int64_t col) {
        return e.add(base, e.add(e.mulc(sb, row), e.c64(col)));
      },
      [&](int64_t ab) {
        return e.add(e.add(d, ib), e.mul(e.add(ia, e.c64(ab * n)), da));
      },
      [&](Value out, int64_t i) { return e.add(out, e.mulc(da, i)); }, n,
      blocks, aBlocks);
}
