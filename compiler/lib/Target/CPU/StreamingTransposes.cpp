//===- StreamingTransposes.cpp - Transposes with streaming stores ---------===//
//
// The transpose tiles that exist for streaming (non-temporal) stores, which
// need whole aligned destination lines: skewed tiles for rows that are not a
// whole number of lines apart, staged rows through a buffer, the register-only
// micro tiles (quarters, and one 16-byte lane per square), and how far ahead
// their source loads prefetch.
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/SaveAndRestore.h"

#include <array>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

/// Squares side by side along a in a skewed window, so that it reads a
/// line's worth of each source row at once (as lineBlocks): a single
/// square reads each line of its rows in several visits, and a window's
/// rows, in few L1 sets, evict the lines between visits.
int64_t KernelBuilder::skewBlocks(int64_t n) const { return lineBlocks(n); }

/// Elements per row of the skewed tile's buffer: `skewLines` lines and the
/// skew.
int64_t KernelBuilder::skewBufferRow(int64_t skewLines) const {
  return (skewLines + 1) * lineElements(dst.bytes);
}

void KernelBuilder::emitSkewed(Value s, Value d, const TransposeTiling &t,
                               const KernelLoop &la, const KernelLoop &lb,
                               Range ra, Range rb) {
  ArrayRef<int64_t> inside = t.inside;
  skewedTiles(
      s, d, t.edge, t.skewLines, ra, rb,
      [&](Value i) { return e.mulc(i, lb.srcStride); },
      [&](Value i) { return e.mulc(i, la.dstStride); },
      [&](Value s, Value d, function_ref<void(Value, Value)> body) {
        emitTransposeOuter(inside, 0, s, d, body);
      },
      [&](Value s, Value d, Value aFull, Value windowsEnd) {
        emitTransposeOuter(inside, 0, s, d, [&](Value s, Value d) {
          edgeRect(s, d, t, la, lb, ra.lo, aFull, windowsEnd, rb.hi);
          edgeRect(s, d, t, la, lb, aFull, ra.hi, rb.lo, rb.hi);
        });
      },
      /*rowLoop=*/false);
}

/// Skewed tiles of edge n for destination rows that are not a whole
/// number of lines apart: each row of the tile stores whole aligned lines
/// from its own first line boundary on, from a buffer (skewBuffer) that
/// holds the tile's rows transposed with a line to spare; normal stores
/// fill the part of each row before its first line and after its last.
/// `srcB` and `dstA` scale an index along b in the source and along a in
/// the destination; `around` runs the loops inside the tile (if any) around
/// a body; `edges` copies the rows short of a full square and the columns
/// past the last window. `rowLoop`: the window's rows store in a loop
/// rather than unrolled (less code where the row addresses are run-time
/// values anyway).
void KernelBuilder::skewedTiles(
    Value s, Value d, int64_t n, int64_t skewLines, Range ra, Range rb,
    function_ref<Value(Value)> srcB, function_ref<Value(Value)> dstA,
    function_ref<void(Value, Value, function_ref<void(Value, Value)>)> around,
    function_ref<void(Value, Value, Value, Value)> edges, bool rowLoop) {
  int64_t line = lineElements(dst.bytes), rowLen = skewBufferRow(skewLines);
  // Lines every row of the chunk can store whole, whatever its shift.
  Value lines =
      e.add(arith::DivSIOp::create(
                e.b, arith::SubIOp::create(e.b, rb.hi, rb.lo), e.c64(line)),
            e.c64(-1));
  Value aFull = floorTo(ra.lo, ra.hi, n);
  Type vt = e.vecOf(src.mem, n), lineType = e.vecOf(dst.mem, line);
  if (n * src.bytes >= 64)
    usesWideRegisters = true;
  // Rows [ia, ia + n * blocks) of the window of columns [b0, b0 + (m + 1)
  // * line): `blocks` squares side by side along a, so that each source
  // row is read a line's worth at a time.
  auto window = [&](Value s, Value d, Value ia, Value l0, Value m, Value b0,
                    int64_t blocks) {
    Value squares = e.mulc(e.add(m, e.c64(1)), line / n);
    e.forLoop(e.c64(0), squares, 1, [&](Value q) {
      Value first = e.add(b0, e.mulc(q, n));
      for (int64_t ab = 0; ab < blocks; ++ab) {
        SmallVector<Value> rows;
        for (int64_t j = 0; j < n; ++j)
          rows.push_back(sourceLoad(vt,
                                    e.add(e.add(s, e.add(ia, e.c64(ab * n))),
                                          srcB(e.add(first, e.c64(j)))),
                                    /*lineStart=*/ab == 0));
        SmallVector<Value> cols = transposeSquare(rows);
        for (int64_t i = 0; i < n; ++i)
          e.store(e.convert(cols[i], src, dst), skewBuffer, dst.mem,
                  e.add(e.c64((ab * n + i) * rowLen), e.mulc(q, n)));
      }
    });
    Value firstWindow =
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, l0, e.c64(0));
    Value lastWindow = arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq,
                                             e.add(l0, m), lines);
    auto storeRow = [&](Value i, Value rowBuf) {
      Value row = e.add(d, dstA(e.add(ia, i)));
      Value shift = lineShift(e.add(row, rb.lo));
      e.forLoop(e.c64(0), m, 1, [&](Value l) {
        Value col = e.add(shift, e.mulc(l, line));
        Value v = e.load(lineType, skewBuffer, dst.mem, e.add(rowBuf, col));
        e.store(v, dstPtr, dst.mem, e.add(e.add(row, b0), col),
                /*nontemporal=*/true);
      });
      // The row's part before its first line and, in the last window,
      // after its last, while they are in the buffer.
      e.ifElse(
          firstWindow,
          [&] { storePieces(rowBuf, e.add(row, b0), shift, line); }, [] {});
      e.ifElse(
          lastWindow,
          [&] {
            Value col = e.add(shift, e.mulc(m, line));
            storePieces(e.add(rowBuf, col), e.add(e.add(row, b0), col),
                        arith::SubIOp::create(e.b, e.c64(line), shift), line);
          },
          [] {});
    };
    if (rowLoop)
      return e.forLoop(e.c64(0), e.c64(n * blocks), 1,
                       [&](Value i) { storeRow(i, e.mulc(i, rowLen)); });
    for (int64_t i = 0; i < n * blocks; ++i)
      storeRow(e.c64(i), e.c64(i * rowLen));
  };
  int64_t blocks = skewBlocks(n);
  Value aWide = floorTo(ra.lo, ra.hi, n * blocks);
  e.forLoop(e.c64(0), lines, skewLines, [&](Value l0) {
    Value m = e.minI(arith::SubIOp::create(e.b, lines, l0), e.c64(skewLines));
    Value b0 = e.add(rb.lo, e.mulc(l0, line));
    around(s, d, [&](Value s, Value d) {
      e.forLoop(ra.lo, aWide, n * blocks,
                [&](Value ia) { window(s, d, ia, l0, m, b0, blocks); });
      if (blocks > 1)
        e.forLoop(aWide, aFull, n,
                  [&](Value ia) { window(s, d, ia, l0, m, b0, 1); });
    });
  });
  // Columns past the last window (when b is no whole number of lines),
  // and the rows short of a full tile: edgeRect, as masked squares rather
  // than element by element where the plan has maskedEdges.
  Value windowsEnd = e.add(rb.lo, e.mulc(e.add(lines, e.c64(1)), line));
  edges(s, d, aFull, windowsEnd);
}

/// Copies `count` (at most `line`) elements from the skew buffer to the
/// destination with normal stores, as vectors of descending powers of
/// two: the piece of p elements starts after the larger pieces, at count
/// rounded down to a multiple of 2p.
void KernelBuilder::storePieces(Value from, Value to, Value count,
                                int64_t line) {
  for (int64_t p = line; p >= 1; p /= 2) {
    Value has = arith::CmpIOp::create(
        e.b, arith::CmpIPredicate::ne,
        arith::AndIOp::create(e.b, count, e.c64(p)), e.c64(0));
    e.ifElse(
        has,
        [&] {
          Value at = arith::AndIOp::create(e.b, count, e.c64(~(2 * p - 1)));
          Value v =
              e.load(e.vecOf(dst.mem, p), skewBuffer, dst.mem, e.add(from, at));
          e.store(v, dstPtr, dst.mem, e.add(to, at));
        },
        [] {});
  }
}

/// Staged rows (TransposeTiling::staged): the chunk's rows [ra.lo,
/// ra.hi) are one contiguous span of the destination, row i at dstA(i)
/// elements. Each block of rowsPer rows (at least two destination lines)
/// goes through the normal-store tiles (`plane`; whole: the block has
/// rowsPer rows) into the
/// buffer (skewBuffer), at its place in the span's lines after the
/// partial line the previous block left; the buffer's whole lines then
/// stream out, and the partial one moves to the buffer's front. The
/// span's first line (when the span does not start it) and last partial
/// line store normally.
void KernelBuilder::emitStaged(
    Value s, Value d, int64_t rowsPer, function_ref<Value(Value)> dstA,
    Range ra, function_ref<void(Value, Value, Range, bool)> plane) {
  int64_t line = lineElements(dst.bytes);
  Type lineType = e.vecOf(dst.mem, line);
  Value spanStart = e.add(d, dstA(ra.lo));
  // Elements of the span's first line before the span.
  Value off = arith::SubIOp::create(e.b, e.c64(line), lineShift(spanStart));
  off = arith::AndIOp::create(e.b, off, e.c64(line - 1));
  Value lineBase = arith::SubIOp::create(e.b, spanStart, off);
  Value hasHead =
      arith::CmpIOp::create(e.b, arith::CmpIPredicate::ne, off, e.c64(0));
  auto block = [&](Value ia, Value count, bool last) {
    // Elements of the span's lines before this block, and those of them
    // still in the buffer.
    Value done = e.add(off, dstA(arith::SubIOp::create(e.b, ia, ra.lo)));
    Value pos = arith::AndIOp::create(e.b, done, e.c64(line - 1));
    Value to = e.add(lineBase, arith::SubIOp::create(e.b, done, pos));
    {
      llvm::SaveAndRestore<Value> intoBuffer(dstPtr, skewBuffer);
      plane(s, arith::SubIOp::create(e.b, pos, dstA(ia)),
            Range{ia, e.add(ia, count)}, /*whole=*/!last);
    }
    Value end = e.add(pos, dstA(count));
    Value whole = arith::DivUIOp::create(e.b, end, e.c64(line));
    Value first = arith::AndIOp::create(
        e.b, hasHead,
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, ia, ra.lo));
    Value firstLine = arith::ExtUIOp::create(e.b, e.i64, first);
    auto stream = [&] {
      e.ifElse(
          first,
          [&] {
            storePieces(off, e.add(to, off),
                        arith::SubIOp::create(e.b, e.c64(line), off), line);
          },
          [] {});
      e.forLoop(firstLine, whole, 1, [&](Value l) {
        Value at = e.mulc(l, line);
        e.store(e.load(lineType, skewBuffer, dst.mem, at), dstPtr, dst.mem,
                e.add(to, at), /*nontemporal=*/true);
      });
    };
    Value tail = e.mulc(whole, line);
    if (!last) {
      // Blocks span two lines or more: the first line is whole.
      stream();
      e.store(e.load(lineType, skewBuffer, dst.mem, tail), skewBuffer, dst.mem,
              e.c64(0));
      return;
    }
    Value none =
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, whole, e.c64(0));
    e.ifElse(
        none,
        [&] {
          Value lo = arith::SelectOp::create(e.b, first, off, e.c64(0));
          storePieces(lo, e.add(to, lo), arith::SubIOp::create(e.b, end, lo),
                      line);
        },
        [&] {
          stream();
          storePieces(tail, e.add(to, tail),
                      arith::SubIOp::create(e.b, end, tail), line);
        });
  };
  Value blocksEnd = floorTo(ra.lo, ra.hi, rowsPer);
  e.forLoop(ra.lo, blocksEnd, rowsPer,
            [&](Value ia) { block(ia, e.c64(rowsPer), false); });
  block(blocksEnd, arith::SubIOp::create(e.b, ra.hi, blocksEnd), true);
}

/// Whether streaming n x n squares, `blocks` of them along b, take
/// streamingLanes: squares of 16-byte rows, with 32 vector registers, whose
/// destination rows make whole lines.
bool KernelBuilder::lanesTile(int64_t n, int64_t blocks) const {
  return lanesSquares(cpu().vectorRegisters, n, src.bytes, dst.bytes) &&
         blocks * n * dst.bytes == kCacheLineBytes;
}

/// Whether a micro tile's load `offset` elements along a starts a new
/// line's worth of its row.
bool KernelBuilder::lineStart(int64_t offset) const {
  return offset * src.bytes % kCacheLineBytes == 0;
}

/// Loads a tile's source vector; the first vector of each line's worth
/// also prefetches `prefetchAhead` bytes further (streaming tiles only).
Value KernelBuilder::sourceLoad(Type vt, Value index, bool lineStart) {
  if (prefetchAhead && lineStart)
    e.prefetch(srcPtr, src.mem, index, prefetchAhead, /*locality=*/2);
  return e.load(vt, srcPtr, src.mem, index);
}

/// How far ahead of its loads a streaming tile prefetches its source, in
/// bytes (0: not at all), into L2 (prefetcht1: into L1 was slower). The
/// hardware prefetchers fall behind in these cases:
/// - The source is read block by block: a spans whole source rows, the
///   rows are adjacent, and each tile's rows are the next block of them
///   (the prefetchers see a page read out of order, or 16 short
///   streams). Two blocks ahead, at least 8 KiB; blocks over 64 KiB gain
///   nothing.
/// - A tile reads 32 or more long rows (f16 and conversions to f16): more
///   streams than the prefetchers follow. rowPrefetchBytes ahead along the
///   rows, so that the line is in the same row. Not tiles that load rows
///   sharing L1 sets in pieces, whose lines come back from L2 anyway; tiles of
///   16 rows gain nothing.
/// - Skewed tiles read skewLines + 1 lines' worth of rows, a vector of
///   each at a time: rowPrefetchBytes ahead along rows of 4 KiB or more (where
///   transposeTiling starts skewing tiles of long rows).
int64_t KernelBuilder::sourcePrefetchBytes(const TransposeTiling &t) const {
  if (!k.plan.streamingStores || t.interleave)
    return 0;
  auto [a, bl] = *k.plan.tiledLoops;
  const KernelLoop &la = k.plan.loops[a], &lb = k.plan.loops[bl];
  if (la.srcStride <= 0 || lb.srcStride <= 0)
    return 0;
  const TargetInfo::CPUTuning &tuning = cpu().tuning;
  const int64_t kRowAhead = tuning.rowPrefetchBytes;
  bool longRows = la.size * la.srcStride * src.bytes >= 4 * kRowAhead;
  if (t.skewed)
    return longRows ? kRowAhead : 0;
  // The rows of each tile's block are adjacent, and the blocks follow one
  // another: prefetch two blocks ahead.
  int64_t w = t.streamWidth;
  int64_t block = w * lb.srcStride * src.bytes;
  if (t.inside.empty() && la.size * la.srcStride == lb.srcStride &&
      block <= tuning.blockPrefetchMaxBytes)
    return std::max<int64_t>(2 * block, tuning.blockPrefetchMinBytes);
  bool wholeLineLoads =
      lanesTile(t.edge, w / t.edge) && lineBlocks(t.edge) == w / t.edge;
  if (w >= 32 && (sourceLinesPerSet(lb, w) <= 8 || wholeLineLoads) && longRows)
    return kRowAhead;
  return 0;
}

/// The most of `rows` source rows, b's stride apart, that share one L1 set.
int64_t KernelBuilder::sourceLinesPerSet(const KernelLoop &lb,
                                         int64_t rows) const {
  return linesPerSet(lb.srcStride * src.bytes, rows);
}

/// The streaming micro tile for 4-byte elements, in registers only: a
/// spill is a normal store, and normal stores among the non-temporal ones
/// slow the whole stream down. Each pass makes four destination rows (one
/// quarter of eight a columns): every vector holds four a columns of
/// source row j in its low lane and of row j + 4 in its high lane, loaded
/// as two 16-byte halves, so two rounds of in-lane interleaves finish the
/// 8 x 4 transpose; with `blocks` of them side by side along b, at most
/// eight vectors are live. The four passes read every
/// source line of the tile four times, so this is for tiles whose lines
/// stay in L1 between passes, no more than two to a set (on rows that
/// crowd a set, loading every line whole at once, spills and all, is
/// faster).
void KernelBuilder::streamingQuarters(Value s, Value d, const KernelLoop &la,
                                      const KernelLoop &lb, Value ia, Value ib,
                                      int64_t blocks, int64_t aBlocks) {
  constexpr int64_t n = 8, q = 4;
  Type half = e.vecOf(src.mem, q);
  Value base = e.add(e.add(s, ia), e.mulc(ib, lb.srcStride));
  for (int64_t col = 0; col < aBlocks * n; col += q) {
    SmallVector<SmallVector<Value>> outs;
    for (int64_t blk = 0; blk < blocks; ++blk) {
      auto quarterRow = [&](int64_t j) {
        return sourceLoad(
            half, e.add(base, e.c64((blk * n + j) * lb.srcStride + col)),
            lineStart(col));
      };
      SmallVector<Value> r;
      for (int64_t j = 0; j < q; ++j)
        r.push_back(concat({quarterRow(j), quarterRow(j + q)}));
      outs.push_back(interleaveTranspose(std::move(r), /*lanes=*/2));
    }
    for (int64_t k = 0; k < q; ++k) {
      SmallVector<Value> parts;
      for (int64_t blk = 0; blk < blocks; ++blk)
        parts.push_back(outs[blk][k]);
      Value row =
          e.add(e.add(d, ib), e.mulc(e.add(ia, e.c64(col + k)), la.dstStride));
      e.store(e.convert(concat(parts), src, dst), dstPtr, dst.mem, row,
              /*nontemporal=*/true);
    }
  }
}

/// The streaming micro tile for squares of 16-byte rows (8 x 8 halves)
/// with 32 vector registers: vector j holds row j of each of the `blocks`
/// squares side by side, one 16-byte lane per square, so that one round of
/// in-lane interleaves transposes all of them and output i is destination
/// row i, a whole line (the 32 x 32 tile that loads every vector first
/// spills even with 32 registers). When a tile's row is one whole line (4
/// x 4 squares), each source line is loaded once and its lanes are dealt
/// to the four a-blocks' vectors by whole-lane shuffles: loaded in 16-byte
/// pieces, one per a-block, the lines of rows in one L1 set are evicted
/// between pieces and read from L2 four times.
void KernelBuilder::streamingLanes(Value s, Value d, const KernelLoop &la,
                                   const KernelLoop &lb, Value ia, Value ib,
                                   int64_t n, int64_t blocks, int64_t aBlocks) {
  Value base = e.add(e.add(s, ia), e.mulc(ib, lb.srcStride));
  emitLanesTile(
      [&](int64_t row, int64_t col) {
        return e.add(base, e.c64(row * lb.srcStride + col));
      },
      [&](int64_t ab) {
        return e.add(e.add(d, ib),
                     e.mulc(e.add(ia, e.c64(ab * n)), la.dstStride));
      },
      [&](Value out, int64_t i) { return e.add(out, e.c64(i * la.dstStride)); },
      n, blocks, aBlocks);
}

/// streamingLanes with the tile's addresses from callbacks (static strides
/// or run-time ones): `srcAt(row, col)` the source element of a tile row
/// (b index) and column (a index), `dstRows(ab)` the destination element
/// starting a-block ab's first row, `dstAt(out, i)` its row i.
void KernelBuilder::emitLanesTile(function_ref<Value(int64_t, int64_t)> srcAt,
                                  function_ref<Value(int64_t)> dstRows,
                                  function_ref<Value(Value, int64_t)> dstAt,
                                  int64_t n, int64_t blocks, int64_t aBlocks) {
  Type vt = e.vecOf(src.mem, n);
  // rows[ab][j]: row j of the squares of a-block ab, one per lane.
  SmallVector<SmallVector<Value>> rows(aBlocks);
  if (blocks == 4 && aBlocks == 4) {
    Type line = e.vecOf(src.mem, n * aBlocks);
    for (int64_t j = 0; j < n; ++j) {
      SmallVector<Value> whole;
      for (int64_t blk = 0; blk < blocks; ++blk)
        whole.push_back(
            sourceLoad(line, srcAt(blk * n + j, 0), /*lineStart=*/true));
      SmallVector<Value> byBlock = transposeLanes4(whole, n);
      for (int64_t ab = 0; ab < aBlocks; ++ab)
        rows[ab].push_back(byBlock[ab]);
    }
  } else {
    for (int64_t ab = 0; ab < aBlocks; ++ab)
      for (int64_t j = 0; j < n; ++j) {
        SmallVector<Value> parts;
        for (int64_t blk = 0; blk < blocks; ++blk)
          parts.push_back(
              sourceLoad(vt, srcAt(blk * n + j, ab * n), lineStart(ab * n)));
        rows[ab].push_back(concat(parts));
      }
  }
  for (int64_t ab = 0; ab < aBlocks; ++ab) {
    SmallVector<Value> cols = interleaveTranspose(std::move(rows[ab]), blocks);
    Value out = dstRows(ab);
    for (int64_t i = 0; i < n; ++i)
      e.store(e.convert(cols[i], src, dst), dstPtr, dst.mem, dstAt(out, i),
              /*nontemporal=*/true);
  }
}

/// Transposes the 4 x 4 matrix of `n`-element lanes that four vectors
/// hold: result l is lane l of every vector, vector r's in lane r. Two
/// rounds of whole-lane shuffles (vshufi64x2 on AVX-512).
SmallVector<Value> KernelBuilder::transposeLanes4(ArrayRef<Value> v,
                                                  int64_t n) {
  auto pick = [&](Value x, Value y, std::array<int64_t, 4> lanes) -> Value {
    SmallVector<int64_t> mask;
    for (int64_t l : lanes)
      for (int64_t c = 0; c < n; ++c)
        mask.push_back(l * n + c);
    return vector::ShuffleOp::create(e.b, x, y, mask);
  };
  // Lanes 4-7 name the second operand's.
  Value t0 = pick(v[0], v[1], {0, 1, 4, 5}),
        t1 = pick(v[0], v[1], {2, 3, 6, 7});
  Value t2 = pick(v[2], v[3], {0, 1, 4, 5}),
        t3 = pick(v[2], v[3], {2, 3, 6, 7});
  return {pick(t0, t2, {0, 2, 4, 6}), pick(t0, t2, {1, 3, 5, 7}),
          pick(t1, t3, {0, 2, 4, 6}), pick(t1, t3, {1, 3, 5, 7})};
}
