//===- TransposeKernels.cpp - Transposes in register tiles ----------------===//
//
// Transposes of two tiled loops (a along the source's rows, b along the
// destination's): square register tiles transposed by shuffles (interleaves,
// butterflies, pairs of 8-byte rows), micro tiles of several squares, the tile
// nest that walks a plane (emitTile), masked squares at the edges, and
// interleaving transposes of short rows. The streaming variants that emitTile
// and micro hand off to are in StreamingTransposes.cpp.
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

/// Transposes n rows of n lanes (n a power of two) with log2(n) rounds of
/// two-input shuffles: round s swaps bit s of the row and lane index.
/// log2(n) rounds of interleaving row i with row i + n/2 (the perfect
/// shuffle) transpose n rows of n elements; each interleave is one unpack
/// instruction (punpcklwd / unpcklps, ...) when a square fits a 128-bit
/// lane. Every row may hold `lanes` such squares side by side, one per
/// lane, transposed independently (x86 unpacks work per lane).
SmallVector<Value> KernelBuilder::interleaveTranspose(SmallVector<Value> rows,
                                                      int64_t lanes) {
  int64_t n = rows.size(), width = n * lanes;
  SmallVector<int64_t> low, high;
  for (int64_t lane = 0; lane < lanes; ++lane)
    for (int64_t c = 0; c < n / 2; ++c) {
      int64_t at = lane * n + c;
      low.append({at, width + at});
      high.append({at + n / 2, width + at + n / 2});
    }
  for (int64_t round = 1; round < n; round <<= 1)
    rows = interleaveRound(rows, low, high);
  return rows;
}

/// One round of the perfect shuffle over m vectors: result 2i interleaves
/// vectors i and i + m/2 by `low`, result 2i + 1 by `high`.
SmallVector<Value> KernelBuilder::interleaveRound(ArrayRef<Value> rows,
                                                  ArrayRef<int64_t> low,
                                                  ArrayRef<int64_t> high) {
  int64_t m = rows.size();
  SmallVector<Value> next(m);
  for (int64_t i = 0; i < m / 2; ++i) {
    next[2 * i] = vector::ShuffleOp::create(e.b, rows[i], rows[i + m / 2], low);
    next[2 * i + 1] =
        vector::ShuffleOp::create(e.b, rows[i], rows[i + m / 2], high);
  }
  return next;
}

/// interleaveTranspose for rows of 8 bytes, on pairs of rows: the first
/// round interleaves rows i and i + n/2 whole, into one 16-byte vector
/// that holds both rows of its result; each later round interleaves the
/// low (or high) halves of two such vectors, a and a + n/4, which yields
/// the pair of result rows 2a (2a + 1) of the round. Every shuffle is then
/// one 16-byte unpack, n/2 per round rather than n on 8-byte vectors that
/// the code generator must widen and combine. Column i is half i % 2 of
/// pair i / 2.
SmallVector<Value> KernelBuilder::pairedTranspose(ArrayRef<Value> rows) {
  int64_t n = rows.size();
  SmallVector<int64_t> whole, low, high;
  for (int64_t c = 0; c < n; ++c) {
    whole.append({c, n + c});
    low.append({c, 2 * n + c});
    high.append({n + c, 3 * n + c});
  }
  SmallVector<Value> pairs;
  for (int64_t i = 0; i < n / 2; ++i)
    pairs.push_back(
        vector::ShuffleOp::create(e.b, rows[i], rows[i + n / 2], whole));
  for (int64_t round = 2; round < n; round <<= 1)
    pairs = interleaveRound(pairs, low, high);
  SmallVector<Value> cols;
  for (int64_t i = 0; i < n; ++i) {
    SmallVector<int64_t> half;
    for (int64_t c = 0; c < n; ++c)
      half.push_back((i % 2) * n + c);
    cols.push_back(
        vector::ShuffleOp::create(e.b, pairs[i / 2], pairs[i / 2], half));
  }
  return cols;
}

SmallVector<Value> KernelBuilder::transposeSquare(SmallVector<Value> rows) {
  int64_t n = rows.size();
  if (n >= 2 && n * src.bytes == 8)
    return pairedTranspose(rows);
  // Wider vectors than 128 bits interleave per lane, so they take the
  // butterfly below instead.
  if (n * src.bytes <= 16)
    return interleaveTranspose(std::move(rows));
  for (int64_t s = 1; s < n; s <<= 1) {
    SmallVector<Value> next(rows);
    SmallVector<int64_t> low, high;
    for (int64_t c = 0; c < n; ++c) {
      low.push_back((c & s) ? n + (c ^ s) : c);
      high.push_back((c & s) ? n + c : (c ^ s));
    }
    for (int64_t r = 0; r < n; ++r) {
      if (r & s)
        continue;
      next[r] = vector::ShuffleOp::create(e.b, rows[r], rows[r | s], low);
      next[r | s] = vector::ShuffleOp::create(e.b, rows[r], rows[r | s], high);
    }
    rows = std::move(next);
  }
  return rows;
}

void KernelBuilder::emitTranspose() {
  // A tile reads `width` rows of the source (b's stride apart) along a;
  // the inside loops continue those rows, so that they become long
  // streams the prefetchers follow. The outside loops walk the source in
  // its order too, so that consecutive tiles read adjacent source blocks
  // and only the streaming stores scatter.
  TransposeTiling t = transposeTiling(k.plan);
  prefetchAhead = sourcePrefetchBytes(t);
  // Staged rows: a block of rows, a partial line before it and a line's
  // room for the carry's load after it.
  if (k.plan.streamingStores && t.staged) {
    int64_t rowLen = k.plan.loops[k.plan.tiledLoops->second].size;
    skewBuffer = LLVM::AllocaOp::create(
        e.b, e.ptr, dst.mem,
        e.c64(t.stageRows * rowLen + 2 * lineElements(dst.bytes)),
        kCacheLineBytes);
  }
  if (k.plan.streamingStores && t.skewed)
    skewBuffer = LLVM::AllocaOp::create(
        e.b, e.ptr, dst.mem,
        e.c64(t.edge * skewBlocks(t.edge) * skewBufferRow(t.skewLines)),
        kCacheLineBytes);
  emitTransposeOuter(t.outside, 0, e.c64(0), e.c64(0),
                     [&](Value s, Value d) { emitTile(s, d, t); });
}

void KernelBuilder::emitTransposeOuter(ArrayRef<int64_t> loops, size_t depth,
                                       Value s, Value d,
                                       function_ref<void(Value, Value)> body) {
  if (depth == loops.size())
    return body(s, d);
  const KernelLoop &l = k.plan.loops[loops[depth]];
  Range r = rangeOf(loops[depth]);
  e.forLoop(r.lo, r.hi, 1, [&](Value i) {
    emitTransposeOuter(loops, depth + 1, e.add(s, e.mulc(i, l.srcStride)),
                       e.add(d, e.mulc(i, l.dstStride)), body);
  });
}

/// Scalar copy of the rectangle [a0, a1) x [b0, b1).
void KernelBuilder::scalarRect(Value s, Value d, const KernelLoop &la,
                               const KernelLoop &lb, Value a0, Value a1,
                               Value b0, Value b1) {
  e.forLoop(a0, a1, 1, [&](Value ia) {
    Value sa = e.add(s, e.mulc(ia, la.srcStride));
    Value da = e.add(d, e.mulc(ia, la.dstStride));
    KernelLoop inner{lb.size, lb.srcStride, lb.dstStride};
    scalarCopy(inner, b0, b1, sa, da);
  });
}

Value KernelBuilder::floorTo(Value lo, Value hi, int64_t n) {
  Value count = arith::SubIOp::create(e.b, hi, lo);
  return e.add(lo, e.mulc(arith::DivSIOp::create(e.b, count, e.c64(n)), n));
}

/// The micro tiles of one plane of a x b, as emitTile lays them out: columns
/// of tiles down a, the columns past the last full tile, and the orders that
/// cover a plane with them (streamed; plane, which staged rows use too).
struct KernelBuilder::TileNest {
  KernelBuilder &kb;
  const TransposeTiling &t;
  const KernelLoop &la, &lb;
  Range ra, rb;
  ArrayRef<int64_t> inside;
  int64_t n, w;
  /// The rows along a that a micro tile takes: a line's worth of each
  /// source row (as TransposeTiling's rowsFirst and stageRows count them).
  int64_t wide;
  /// The end of the full tiles along b.
  Value bFull;
  /// Rows of tiles along b first (TransposeTiling::rowsFirst), unless a
  /// plan made elsewhere splits b.
  bool rowsFirst;
  Emitter &e = kb.e;

  void column(Value s, Value d, Value b0, int64_t width, bool streaming,
              Range ra, bool narrow = false);
  void tailColumns(Value s, Value d, Value bLo, Range ra);
  void blocks(Value s, Value d, Value bLo, Value bHi, int64_t width,
              bool streaming);
  Value squaresEnd();
  void streamed(Value s, Value d, bool streaming);
  void panel(Value s, Value d, Range ra);
  void plane(Value s, Value d, Range ra);
  void planes(Value s, Value d);
};

/// The tiles of `width` columns from b0 down a; `narrow`: ra is known to
/// be shorter than `wide`, so no wide tile would run.
void KernelBuilder::TileNest::column(Value s, Value d, Value b0, int64_t width,
                                     bool streaming, Range ra, bool narrow) {
  Value aWide = ra.lo;
  if (!narrow) {
    aWide = kb.floorTo(ra.lo, ra.hi, wide);
    e.forLoop(ra.lo, aWide, wide, [&](Value ia) {
      kb.micro(s, d, la, lb, ia, b0, n, width / n, kb.lineBlocks(n), streaming);
    });
  }
  Value aFull = kb.floorTo(aWide, ra.hi, n);
  e.forLoop(aWide, aFull, n, [&](Value ia) {
    kb.micro(s, d, la, lb, ia, b0, n, width / n, 1, streaming);
  });
  if (!t.maskedEdges)
    return kb.scalarRect(s, d, la, lb, aFull, ra.hi, b0,
                         e.add(b0, e.c64(width)));
  Value rows = arith::SubIOp::create(e.b, ra.hi, aFull);
  kb.ifPositive(rows, [&] {
    for (int64_t blk = 0; blk < width / n; ++blk)
      kb.maskedSquare(s, d, la, lb, aFull, e.add(b0, e.c64(blk * n)), n, rows,
                      e.c64(n));
  });
}

/// Columns [bLo, rb.hi), fewer than n, down a: whole squares along a but
/// the last (faster than edgeRect's loop, which takes the count of rows
/// of every square from a minimum).
void KernelBuilder::TileNest::tailColumns(Value s, Value d, Value bLo,
                                          Range ra) {
  if (!t.maskedEdges)
    return kb.scalarRect(s, d, la, lb, ra.lo, ra.hi, bLo, rb.hi);
  Value cols = arith::SubIOp::create(e.b, rb.hi, bLo);
  kb.ifPositive(cols, [&] {
    Value aFull = kb.floorTo(ra.lo, ra.hi, n);
    e.forLoop(ra.lo, aFull, n, [&](Value ia) {
      kb.maskedSquare(s, d, la, lb, ia, bLo, n, e.c64(n), cols);
    });
    Value rows = arith::SubIOp::create(e.b, ra.hi, aFull);
    kb.ifPositive(rows, [&] {
      kb.maskedSquare(s, d, la, lb, aFull, bLo, n, rows, cols);
    });
  });
}

/// Tiles of `width` columns over [bLo, bHi), the inside loops within
/// each b-block, so that a streaming tile's rows continue as long
/// streams.
void KernelBuilder::TileNest::blocks(Value s, Value d, Value bLo, Value bHi,
                                     int64_t width, bool streaming) {
  e.forLoop(bLo, bHi, width, [&](Value b0) {
    kb.emitTransposeOuter(inside, 0, s, d, [&](Value s, Value d) {
      column(s, d, b0, width, streaming, ra);
    });
  });
}

/// Columns past the last full tile: single squares, then a masked square
/// (or scalars), so that fewer than n columns, not w, are left to the
/// edge.
Value KernelBuilder::TileNest::squaresEnd() {
  return w > n ? kb.floorTo(bFull, rb.hi, n) : bFull;
}

/// Streaming tiles (two lines of each row where b has them, then one),
/// then the columns past them storing normally.
void KernelBuilder::TileNest::streamed(Value s, Value d, bool streaming) {
  if (t.streamWidth > w) {
    Value bPairs = kb.floorTo(rb.lo, rb.hi, t.streamWidth);
    blocks(s, d, rb.lo, bPairs, t.streamWidth, streaming);
    blocks(s, d, bPairs, bFull, w, streaming);
  } else {
    blocks(s, d, rb.lo, bFull, w, streaming);
  }
  Value bSquares = squaresEnd();
  if (w > n)
    blocks(s, d, bFull, bSquares, n, false);
  kb.emitTransposeOuter(inside, 0, s, d, [&](Value s, Value d) {
    tailColumns(s, d, bSquares, ra);
  });
}

/// Tiles that store normally finish a plane of a x b, every column of
/// it, before the inside loops move on: a destination line that a tile
/// writes in part is finished while it is in cache, not a whole pass
/// over the inside loops later.
void KernelBuilder::TileNest::panel(Value s, Value d, Range ra) {
  Range rest = ra;
  if (rowsFirst) {
    Value aWide = kb.floorTo(ra.lo, ra.hi, wide);
    e.forLoop(ra.lo, aWide, wide, [&](Value ia) {
      e.forLoop(rb.lo, bFull, w, [&](Value b0) {
        kb.micro(s, d, la, lb, ia, b0, n, w / n, kb.lineBlocks(n), false);
      });
    });
    rest = Range{aWide, ra.hi};
  }
  e.forLoop(rb.lo, bFull, w, [&](Value b0) {
    column(s, d, b0, w, false, rest, /*narrow=*/rowsFirst);
  });
  Value bSquares = squaresEnd();
  if (w > n)
    e.forLoop(bFull, bSquares, n,
              [&](Value b0) { column(s, d, b0, n, false, ra); });
  tailColumns(s, d, bSquares, ra);
}

/// A plane of more than 4096 rows of a goes in panels of 2048 rows: each
/// b-block's pass leaves two partial lines per row for the next, 256 KiB
/// per panel, which then are still in L2 (over the whole of a, they are
/// read from memory again). Smaller planes were slower in panels.
void KernelBuilder::TileNest::plane(Value s, Value d, Range ra) {
  const int64_t kPanelRows = kb.cpu().tuning.panelRows;
  if (la.size <= 2 * kPanelRows)
    return panel(s, d, ra);
  e.forLoop(ra.lo, ra.hi, kPanelRows, [&](Value a0) {
    panel(s, d, Range{a0, e.minI(e.add(a0, e.c64(kPanelRows)), ra.hi)});
  });
}

/// A plane for every iteration of the inside loops.
void KernelBuilder::TileNest::planes(Value s, Value d) {
  kb.emitTransposeOuter(inside, 0, s, d,
                        [&](Value s, Value d) { plane(s, d, ra); });
}

void KernelBuilder::emitTile(Value s, Value d, const TransposeTiling &t) {
  auto [a, bl] = *k.plan.tiledLoops;
  const KernelLoop &la = k.plan.loops[a], &lb = k.plan.loops[bl];
  Range ra = rangeOf(a), rb = rangeOf(bl);
  ArrayRef<int64_t> inside = t.inside;
  if (t.interleave) {
    // b is shorter than one line, so the planner never splits it.
    assert(!rangeIsSplit(bl) && "interleaved transpose split along b");
    return emitTransposeOuter(inside, 0, s, d, [&](Value s, Value d) {
      emitInterleave(s, d, la, lb, ra);
    });
  }
  // Narrow tiles when a or b is shorter than the square: otherwise every
  // element would go to the scalar rectangle.
  int64_t n = t.edge, w = t.width;
  // Non-temporal stores need whole aligned lines: the planner streams only
  // tiles of whole lines, and the first row's alignment is checked at run
  // time (the other version stores normally).
  bool canStream = k.plan.streamingStores && t.wholeLines;
  bool skewed = k.plan.streamingStores && t.skewed;
  Value bFull = floorTo(rb.lo, rb.hi, w);
  int64_t wide = n * lineBlocks(n);
  bool rowsFirst = t.rowsFirst && k.plan.parallelLoop != bl;
  TileNest nest{*this, t, la, lb, ra, rb, inside, n, w, wide, bFull, rowsFirst};
  // Tiles that store normally: inside loops that continue the source rows
  // run within each b-block (TransposeTiling::insideBlocks), else a plane
  // per inside iteration.
  auto planes = [&] {
    if (t.insideBlocks)
      nest.streamed(s, d, false);
    else
      nest.planes(s, d);
  };
  if (k.plan.streamingStores && t.staged) {
    assert(inside.empty() && !rangeIsSplit(bl) && "staged rows cut");
    usesStreaming = true;
    return emitStaged(
        s, d, t.stageRows, [&](Value i) { return e.mulc(i, la.dstStride); }, ra,
        [&](Value s, Value d, Range ra, bool) { nest.plane(s, d, ra); });
  }
  if (skewed) {
    // A chunk narrower than two lines along b has no line every row can
    // store whole.
    usesStreaming = true;
    Value wide = arith::CmpIOp::create(e.b, arith::CmpIPredicate::sge,
                                       arith::SubIOp::create(e.b, rb.hi, rb.lo),
                                       e.c64(2 * lineElements(dst.bytes)));
    e.ifElse(
        wide, [&] { emitSkewed(s, d, t, la, lb, ra, rb); }, planes);
    return;
  }
  if (!canStream)
    return planes();
  streamIfAligned(e.add(d, rb.lo), kCacheLineBytes, [&](bool aligned) {
    if (aligned)
      nest.streamed(s, d, true);
    else
      planes();
  });
}

void KernelBuilder::ifPositive(Value count, function_ref<void()> body) {
  e.ifElse(
      arith::CmpIOp::create(e.b, arith::CmpIPredicate::sgt, count, e.c64(0)),
      body, [] {});
}

/// Copies the rectangle [a0, a1) x [b0, b1) at a tile's edges: masked
/// squares with maskedEdges, else element by element.
void KernelBuilder::edgeRect(Value s, Value d, const TransposeTiling &t,
                             const KernelLoop &la, const KernelLoop &lb,
                             Value a0, Value a1, Value b0, Value b1) {
  if (!t.maskedEdges)
    return scalarRect(s, d, la, lb, a0, a1, b0, b1);
  int64_t n = t.edge;
  e.forLoop(a0, a1, n, [&](Value ia) {
    Value rows = e.minI(e.c64(n), arith::SubIOp::create(e.b, a1, ia));
    e.forLoop(b0, b1, n, [&](Value ib) {
      Value cols = e.minI(e.c64(n), arith::SubIOp::create(e.b, b1, ib));
      maskedSquare(s, d, la, lb, ia, ib, n, rows, cols);
    });
  });
}

/// Lanes [0, n) below `count` (i64, 0 to n), as a mask: built in a
/// general register (a mask register's kmov on AVX-512), so that the
/// masks of a square cost no vector registers.
Value KernelBuilder::lanesBelow(int64_t n, Value count) {
  Type bits = e.b.getIntegerType(n);
  Value all = arith::SubIOp::create(
      e.b, arith::ShLIOp::create(e.b, e.c64(1), count), e.c64(1));
  return LLVM::BitcastOp::create(e.b, VectorType::get({n}, e.b.getI1Type()),
                                 arith::TruncIOp::create(e.b, bits, all));
}

/// The part of the n x n square at (ia, ib) with `rows` (1 to n) a
/// indices and `cols` (1 to n) b indices, transposed in registers like a
/// whole one: masked loads of the first `cols` source rows, masked stores
/// of the first `rows` destination rows. Copied element by element (a
/// loop LLVM turns into gathers), edges cost far more than their share.
void KernelBuilder::maskedSquare(Value s, Value d, const KernelLoop &la,
                                 const KernelLoop &lb, Value ia, Value ib,
                                 int64_t n, Value rows, Value cols) {
  maskedSquare(
      s, d, [&](Value i) { return e.mulc(i, lb.srcStride); },
      [&](Value i) { return e.mulc(i, la.dstStride); }, ia, ib, n, rows, cols);
}

/// maskedSquare with the strides applied by `srcRow` (b indices to source
/// elements) and `dstRow` (a indices to destination elements): static
/// constants or run-time values (rtEdge). With `pieceStores`, each
/// destination row is stored by storeLanesBelow instead of a masked store.
void KernelBuilder::maskedSquare(Value s, Value d,
                                 function_ref<Value(Value)> srcRow,
                                 function_ref<Value(Value)> dstRow, Value ia,
                                 Value ib, int64_t n, Value rows, Value cols,
                                 bool pieceStores) {
  Type vt = e.vecOf(src.mem, n);
  Value zero =
      arith::ConstantOp::create(e.b, vt, cast<TypedAttr>(e.b.getZeroAttr(vt)));
  Value base = e.add(e.add(s, ia), srcRow(ib));
  Value none = e.c64(0);
  // Row j past the edge loads nothing (an all-false mask touches no
  // memory); its address stays that of the last row.
  auto lastOf = [&](int64_t j, Value count) {
    return e.minI(e.c64(j), arith::SubIOp::create(e.b, count, e.c64(1)));
  };
  auto within = [&](int64_t j, Value count) {
    return arith::CmpIOp::create(e.b, arith::CmpIPredicate::slt, e.c64(j),
                                 count);
  };
  SmallVector<Value> in;
  for (int64_t j = 0; j < n; ++j) {
    Value mask = lanesBelow(
        n, arith::SelectOp::create(e.b, within(j, cols), rows, none));
    Value at = e.add(base, srcRow(lastOf(j, cols)));
    in.push_back(LLVM::MaskedLoadOp::create(e.b, vt, e.gep(srcPtr, src.mem, at),
                                            mask, zero,
                                            Emitter::alignOf(src.mem)));
  }
  SmallVector<Value> out = transposeSquare(std::move(in));
  Value first = e.add(e.add(d, ib), dstRow(ia));
  for (int64_t i = 0; i < n; ++i) {
    Value count = arith::SelectOp::create(e.b, within(i, rows), cols, none);
    Value mask = pieceStores ? Value() : lanesBelow(n, count);
    Value at = e.add(first, dstRow(lastOf(i, rows)));
    if (pieceStores) {
      storeLanesBelow(e.convert(out[i], src, dst), at, count, n);
      continue;
    }
    LLVM::MaskedStoreOp::create(e.b, e.convert(out[i], src, dst),
                                e.gep(dstPtr, dst.mem, at), mask,
                                Emitter::alignOf(dst.mem));
  }
}

/// Stores lanes [0, count) of `v` (n lanes, n a power of two, count 0 to
/// n) at destination element `at` without a masked store: all n lanes in
/// one store, else the pieces of n/2, n/4, ..., 1 lanes that count's bits
/// name, each behind a branch on its bit. vmaskmovps to memory is
/// microcoded on AMD Zen (bench/notes/runtime-extents.md, "Edge stores").
void KernelBuilder::storeLanesBelow(Value v, Value at, Value count, int64_t n) {
  auto bitSet = [&](Value x, int64_t bit) {
    return arith::CmpIOp::create(e.b, arith::CmpIPredicate::ne,
                                 arith::AndIOp::create(e.b, x, e.c64(bit)),
                                 e.c64(0));
  };
  auto lanes = [&](Value x, int64_t from, int64_t length) {
    SmallVector<int64_t> mask;
    for (int64_t i = 0; i < length; ++i)
      mask.push_back(from + i);
    return vector::ShuffleOp::create(e.b, x, x, mask);
  };
  Value whole =
      arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, count, e.c64(n));
  e.ifElse(
      whole, [&] { e.store(v, dstPtr, dst.mem, at); },
      [&] {
        Value piece = v, pos = at;
        for (int64_t half = n / 2; half >= 1; half /= 2) {
          Value low = lanes(piece, 0, half), high = lanes(piece, half, half);
          Value bit = bitSet(count, half), here = pos;
          e.ifElse(
              bit, [&] { e.store(low, dstPtr, dst.mem, here); }, [] {});
          piece = arith::SelectOp::create(e.b, bit, high, low);
          pos = e.add(pos, arith::AndIOp::create(e.b, count, e.c64(half)));
        }
      });
}

/// Emits body(true) (streaming stores) when destination element `index`
/// is aligned to `bytes`, a power of two, at run time, else body(false):
/// x86 streams only aligned stores.
void KernelBuilder::streamIfAligned(Value index, int64_t bytes,
                                    function_ref<void(bool)> body) {
  usesStreaming = true;
  Value addr =
      LLVM::PtrToIntOp::create(e.b, e.i64, e.gep(dstPtr, dst.mem, index));
  Value aligned = arith::CmpIOp::create(
      e.b, arith::CmpIPredicate::eq,
      arith::AndIOp::create(e.b, addr, e.c64(bytes - 1)), e.c64(0));
  e.ifElse(
      aligned, [&] { body(true); }, [&] { body(false); });
}

bool KernelBuilder::rangeIsSplit(int64_t loop) const {
  return parallelLoop() == loop;
}

/// Squares side by side along a in a micro tile (sourceLineBlocks).
int64_t KernelBuilder::lineBlocks(int64_t n) const {
  return sourceLineBlocks(n, src.bytes);
}

/// An (n * aBlocks) x (n * blocks) tile: square n x n transposes, whose
/// rows join into one store per destination row.
void KernelBuilder::micro(Value s, Value d, const KernelLoop &la,
                          const KernelLoop &lb, Value ia, Value ib, int64_t n,
                          int64_t blocks, int64_t aBlocks, bool streaming) {
  Type vt = e.vecOf(src.mem, n);
  Value base = e.add(e.add(s, ia), e.mulc(ib, lb.srcStride));
  // rows[ab][blk][j]. Streaming tiles load all their vectors first, so
  // that the loads of one source line stay adjacent, although the 32
  // vectors of a 16x16 f32 tile then spill (one a-block at a time was
  // slower). Tiles that store normally load one a-block at a time and do
  // not spill, which is faster for them.
  auto load = [&](int64_t ab, int64_t blk, int64_t j) {
    return sourceLoad(vt,
                      e.add(base, e.c64((blk * n + j) * lb.srcStride + ab * n)),
                      streaming && lineStart(ab * n));
  };
  if (streaming && n == 8 && src.bytes == 4 && blocks <= 2 &&
      sourceLinesPerSet(lb, blocks * n) <= 2)
    return streamingQuarters(s, d, la, lb, ia, ib, blocks, aBlocks);
  // Squares of 16-byte rows that make whole destination lines: a
  // whole-line tile per line, side by side along b where the plan pairs
  // lines (TargetInfo::lanesStreamLines).
  int64_t perLine = lineBlocks(n);
  if (streaming && blocks % perLine == 0 && lanesTile(n, perLine)) {
    usesWideRegisters = true;
    for (int64_t l = 0; l < blocks / perLine; ++l)
      streamingLanes(s, d, la, lb, ia,
                     l ? e.add(ib, e.c64(l * perLine * n)) : ib, n, perLine,
                     aBlocks);
    return;
  }
  if (n * src.bytes >= 64)
    usesWideRegisters = true;
  // Tiles that store normally load one a-block at a time, so a source line
  // wider than a square is read in parts, one part per a-block. When more
  // of the tile's source rows share an L1 set than half its ways (rows a
  // power-of-two stride apart), the first part's lines are gone before the
  // next a-block reads the rest: take the squares along a of one b-block
  // in turn instead, so that each line's parts are read back to back, and
  // store each square's rows on their own. Not where the destination rows
  // crowd one set as well: each destination line would then be written in
  // parts just as far apart.
  if (!streaming && aBlocks > 1 &&
      sourceLinesPerSet(lb, blocks * n) > cpu().l1Ways / 2 &&
      linesPerSet(la.dstStride * dst.bytes, aBlocks * n) <= cpu().l1Ways / 2) {
    for (int64_t blk = 0; blk < blocks; ++blk)
      for (int64_t ab = 0; ab < aBlocks; ++ab) {
        SmallVector<Value> square;
        for (int64_t j = 0; j < n; ++j)
          square.push_back(load(ab, blk, j));
        SmallVector<Value> cols = transposeSquare(std::move(square));
        Value out = e.add(e.add(d, e.add(ib, e.c64(blk * n))),
                          e.mulc(e.add(ia, e.c64(ab * n)), la.dstStride));
        for (int64_t i = 0; i < n; ++i)
          e.store(e.convert(cols[i], src, dst), dstPtr, dst.mem,
                  e.add(out, e.c64(i * la.dstStride)), /*streaming=*/false);
      }
    return;
  }
  SmallVector<SmallVector<SmallVector<Value>>> rows(
      aBlocks, SmallVector<SmallVector<Value>>(blocks));
  if (streaming)
    for (int64_t blk = 0; blk < blocks; ++blk)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t ab = 0; ab < aBlocks; ++ab)
          rows[ab][blk].push_back(load(ab, blk, j));
  for (int64_t ab = 0; ab < aBlocks; ++ab) {
    if (!streaming)
      for (int64_t blk = 0; blk < blocks; ++blk)
        for (int64_t j = 0; j < n; ++j)
          rows[ab][blk].push_back(load(ab, blk, j));
    SmallVector<SmallVector<Value>> cols;
    for (int64_t blk = 0; blk < blocks; ++blk)
      cols.push_back(transposeSquare(rows[ab][blk]));
    Value out =
        e.add(e.add(d, ib), e.mulc(e.add(ia, e.c64(ab * n)), la.dstStride));
    for (int64_t i = 0; i < n; ++i) {
      SmallVector<Value> parts;
      for (int64_t blk = 0; blk < blocks; ++blk)
        parts.push_back(cols[blk][i]);
      e.store(e.convert(concat(parts), src, dst), dstPtr, dst.mem,
              e.add(out, e.c64(i * la.dstStride)), streaming);
    }
  }
}

void KernelBuilder::emitInterleave(Value s, Value d, const KernelLoop &la,
                                   const KernelLoop &lb, Range ra) {
  int64_t vw = k.plan.vectorWidth, m = lb.size;
  Value full = floorTo(ra.lo, ra.hi, vw);
  Type vt = e.vecOf(src.mem, vw);
  // Streaming stores go out as m pieces of vw elements (16 bytes or more,
  // the planner checks), aligned to their size when the run's first
  // element is: the version for other placements stores normally. Normal
  // stores read the destination's lines before they write them.
  auto loop = [&](bool streaming) {
    e.forLoop(ra.lo, full, vw, [&](Value ia) {
      SmallVector<Value> rows;
      for (int64_t j = 0; j < m; ++j)
        rows.push_back(e.load(vt, srcPtr, src.mem,
                              e.add(e.add(s, ia), e.c64(j * lb.srcStride))));
      // Concatenate the rows, then pick lane i of row j for output
      // i*m + j.
      Value all = rows[0];
      int64_t width = vw;
      for (int64_t j = 1; j < m; ++j) {
        SmallVector<int64_t> cat;
        for (int64_t c = 0; c < width + vw; ++c)
          cat.push_back(c);
        all = e.shuffle(all, rows[j], cat);
        width += vw;
      }
      SmallVector<int64_t> mask;
      for (int64_t i = 0; i < vw; ++i)
        for (int64_t j = 0; j < m; ++j)
          mask.push_back(j * vw + i);
      Value out =
          e.convert(vector::ShuffleOp::create(e.b, all, all, mask), src, dst);
      Value at = e.add(d, e.mulc(ia, la.dstStride));
      if (!streaming)
        return e.store(out, dstPtr, dst.mem, at);
      for (int64_t p = 0; p < m; ++p) {
        SmallVector<int64_t> piece;
        for (int64_t c = 0; c < vw; ++c)
          piece.push_back(p * vw + c);
        e.store(vector::ShuffleOp::create(e.b, out, out, piece), dstPtr,
                dst.mem, e.add(at, e.c64(p * vw)), /*nontemporal=*/true);
      }
    });
  };
  if (!k.plan.streamingStores)
    loop(false);
  else
    streamIfAligned(e.add(d, e.mulc(ra.lo, la.dstStride)), vw * dst.bytes,
                    loop);
  scalarRect(s, d, la, lb, full, ra.hi, e.c64(0), e.c64(m));
}
