//===- CopyKernels.cpp - Copies as loop nests of vectors ------------------===//
//
// Copies that are no transpose: a loop nest whose innermost loop moves one run
// with vector loads and stores (contiguous, reversed, small steps
// deinterleaved, broadcast or gathered lane by lane), a memcpy call for long
// runs, and streaming stores, with runs joined into whole lines where the plan
// asks (joinsRuns), or run-time-extent kernels' extents do (rtJoinsRuns).
// Also the helpers the transposes share: scalarCopy, lineShift and concat.
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

void KernelBuilder::emitCopyNest(size_t depth, Value s, Value d) {
  const KernelLoop &l = k.plan.loops[depth];
  Range r = rangeOf(depth);
  if (depth + 1 == k.plan.loops.size()) {
    if (k.plan.streamingStores && joinsRuns(k.plan))
      return emitJoinedRun(l, s, d);
    return emitInnerCopy(l, r, s, d);
  }
  e.forLoop(r.lo, r.hi, 1, [&](Value i) {
    copyIndices.push_back(i);
    emitCopyNest(depth + 1, e.add(s, e.mulc(i, l.srcStride)),
                 e.add(d, e.mulc(i, l.dstStride)));
    copyIndices.pop_back();
  });
}

/// The source offset of the run before the one at source offset `s` in
/// the dense destination's order (joinsRuns): step back one along the
/// loop with the smallest destination stride, borrowing from the next
/// ones where the index is 0. Meaningless for the first run.
Value KernelBuilder::previousRunSource(Value s) {
  ArrayRef<KernelLoop> loops = ArrayRef(k.plan.loops).drop_back();
  auto order = llvm::to_vector(llvm::seq<int64_t>(0, loops.size()));
  llvm::sort(order, [&](int64_t x, int64_t y) {
    return loops[x].dstStride < loops[y].dstStride;
  });
  // Stepping back along order[m] with every faster loop at index 0 moves
  // the source by borrow[m].
  SmallVector<int64_t> borrow;
  int64_t wrapped = 0;
  for (int64_t i : order) {
    borrow.push_back(wrapped - loops[i].srcStride);
    wrapped += (loops[i].size - 1) * loops[i].srcStride;
  }
  Value delta = e.c64(borrow.back());
  for (int64_t m = static_cast<int64_t>(order.size()) - 2; m >= 0; --m) {
    Value moved = arith::CmpIOp::create(e.b, arith::CmpIPredicate::ne,
                                        copyIndices[order[m]], e.c64(0));
    delta = arith::SelectOp::create(e.b, moved, e.c64(borrow[m]), delta);
  }
  return e.add(s, delta);
}

/// Whether the kernel can join runs where the extents say (kExtStream 2):
/// the static half of the planner's runsJoin. The innermost loop has unit
/// strides on both sides and is not split.
bool KernelBuilder::rtJoinsRuns() const {
  size_t inner = k.plan.loops.size() - 1;
  return k.kind == KernelKind::Copy &&
         (k.plan.strategy == KernelStrategy::Gather ||
          k.plan.strategy == KernelStrategy::Broadcast) &&
         !k.plan.convert && k.plan.loops.size() >= 2 &&
         k.plan.vectorWidth > 1 && (dst.bytes == 4 || dst.bytes == 8) &&
         staticStride(inner, true) == 1 && staticStride(inner, false) == 1 &&
         rtParallelLoop() != static_cast<int64_t>(inner);
}

/// previousRunSource with run-time extents: the source offset of the run
/// before the one at `s` in the dense destination's order, stepping back
/// along the loop of smallest destination stride (in the plan's order,
/// which the extents have been checked against) and borrowing from the
/// next ones where the index is 0.
Value KernelBuilder::rtPreviousRunSource(Value s) {
  size_t outer = k.plan.loops.size() - 1;
  auto order = llvm::to_vector(llvm::seq<size_t>(0, outer));
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return k.plan.loops[a].dstStride < k.plan.loops[b].dstStride;
  });
  SmallVector<Value> borrow;
  Value wrapped = e.c64(0);
  for (size_t i : order) {
    borrow.push_back(
        arith::SubIOp::create(e.b, wrapped, scaled(e.c64(1), i, true)));
    wrapped =
        e.add(wrapped, scaled(arith::SubIOp::create(e.b, rtSizes[i], e.c64(1)),
                              i, true));
  }
  Value delta = borrow.back();
  for (int64_t m = static_cast<int64_t>(order.size()) - 2; m >= 0; --m) {
    Value moved = arith::CmpIOp::create(e.b, arith::CmpIPredicate::ne,
                                        copyIndices[order[m]], e.c64(0));
    delta = arith::SelectOp::create(e.b, moved, borrow[m], delta);
  }
  return e.add(s, delta);
}

void KernelBuilder::emitJoinedRun(const KernelLoop &l, Value s, Value d) {
  joinedRun(
      e.c64(l.size), s, d, [&] { return previousRunSource(s); },
      [&](Value lo, Value hi) { scalarCopy(l, lo, hi, s, d); },
      [&] { return e.c64(*numel(k.dst.sizes)); });
}

/// One run of `size` elements of a copy whose streaming stores join runs
/// (joinsRuns): the line the run starts in takes the previous run's tail
/// (from `prevSource`) and this run's head, through masked loads, then the
/// run's whole lines; its last partial line is the next run's, but for the
/// destination's last run (it ends at `total` elements). The destination's
/// first and last elements outside whole lines store normally (`scalar`).
/// For runs of a few lines, faster than normal stores.
void KernelBuilder::joinedRun(Value size, Value s, Value d,
                              function_ref<Value()> prevSource,
                              function_ref<void(Value, Value)> scalar,
                              function_ref<Value()> total) {
  usesStreaming = true;
  int64_t vw = k.plan.vectorWidth, line = lineElements(dst.bytes);
  Type vt = e.vecOf(dst.mem, vw);
  // Elements before the first line boundary, and the previous run's
  // elements in that line.
  Value head = lineShift(d);
  Value tail = arith::SubIOp::create(e.b, e.c64(line), head);
  Value joined =
      arith::CmpIOp::create(e.b, arith::CmpIPredicate::ne, head, e.c64(0));
  Value first =
      arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, d, e.c64(0));
  e.ifElse(
      joined,
      [&] {
        e.ifElse(
            first, [&] { scalar(e.c64(0), head); },
            [&] {
              // The previous run ends `tail` elements before the line's
              // end as this one begins `tail` elements after its start.
              Value prevEnd = e.add(prevSource(), size);
              Value lineStart = arith::SubIOp::create(e.b, d, tail);
              Value fromPrev =
                  vector::BroadcastOp::create(e.b, e.vecOf(e.i64, vw), tail);
              Value zero = arith::ConstantOp::create(
                  e.b, vt, cast<TypedAttr>(e.b.getZeroAttr(vt)));
              for (int64_t piece = 0; piece < line; piece += vw) {
                auto lanes =
                    llvm::to_vector(llvm::seq<int64_t>(piece, piece + vw));
                Value lane = arith::ConstantOp::create(
                    e.b, DenseElementsAttr::get(VectorType::get({vw}, e.i64),
                                                ArrayRef<int64_t>(lanes)));
                Value mine = arith::CmpIOp::create(
                    e.b, arith::CmpIPredicate::uge, lane, fromPrev);
                Value theirs = arith::CmpIOp::create(
                    e.b, arith::CmpIPredicate::ult, lane, fromPrev);
                Value back = arith::SubIOp::create(e.b, e.c64(piece), tail);
                Value v = LLVM::MaskedLoadOp::create(
                    e.b, vt, e.gep(srcPtr, src.mem, e.add(prevEnd, back)),
                    theirs, zero, Emitter::alignOf(src.mem));
                v = LLVM::MaskedLoadOp::create(
                    e.b, vt, e.gep(srcPtr, src.mem, e.add(s, back)), mine, v,
                    Emitter::alignOf(src.mem));
                e.store(v, dstPtr, dst.mem, e.add(lineStart, e.c64(piece)),
                        /*nontemporal=*/true);
              }
            });
      },
      [] {});
  Value whole =
      e.mulc(arith::DivSIOp::create(e.b, arith::SubIOp::create(e.b, size, head),
                                    e.c64(line)),
             line);
  Value end = e.add(head, whole);
  e.forLoop(head, end, line, [&](Value i) {
    for (int64_t piece = 0; piece < line; piece += vw) {
      Value at = e.add(i, e.c64(piece));
      e.store(e.load(vt, srcPtr, src.mem, e.add(s, at)), dstPtr, dst.mem,
              e.add(d, at), /*nontemporal=*/true);
    }
  });
  // The destination is dense: its last run ends at its element count.
  Value last = arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq,
                                     e.add(d, size), total());
  e.ifElse(
      last, [&] { scalar(end, size); }, [] {});
}

void KernelBuilder::scalarCopy(const KernelLoop &l, Value lo, Value hi, Value s,
                               Value d) {
  e.forLoop(lo, hi, 1, [&](Value i) {
    Value v =
        e.load(src.mem, srcPtr, src.mem, e.add(s, e.mulc(i, l.srcStride)));
    e.store(e.convert(v, src, dst), dstPtr, dst.mem,
            e.add(d, e.mulc(i, l.dstStride)));
  });
}

/// VW source elements starting at iteration i of a loop with stride
/// `stride`, as a vector in lane order.
Value KernelBuilder::loadLanes(Value s, Value i, int64_t stride, int64_t vw) {
  Type vt = e.vecOf(src.mem, vw);
  Value first = e.add(s, e.mulc(i, stride));
  if (stride == 1)
    return e.load(vt, srcPtr, src.mem, first);
  if (stride == -1) {
    Value v = e.load(vt, srcPtr, src.mem, e.add(first, e.c64(-(vw - 1))));
    SmallVector<int64_t> mask;
    for (int64_t j = vw - 1; j >= 0; --j)
      mask.push_back(j);
    return vector::ShuffleOp::create(e.b, v, v, mask);
  }
  if (stride >= 2 && stride <= cpu().tuning.maxDeinterleave) {
    // Small steps (x[:, ::2]): `stride` contiguous vectors, then every
    // stride-th lane. Reads stride - 1 elements past the last lane; the
    // caller keeps those inside the run.
    SmallVector<Value> parts;
    for (int64_t j = 0; j < stride; ++j)
      parts.push_back(e.load(vt, srcPtr, src.mem, e.add(first, e.c64(j * vw))));
    // A power-of-two count of parts joins by shuffles of equal halves,
    // which x86 lowers to permutes of whole registers; the padding part
    // is never picked.
    while (!llvm::isPowerOf2_64(parts.size()))
      parts.push_back(parts.back());
    Value all = concat(parts);
    SmallVector<int64_t> mask;
    for (int64_t j = 0; j < vw; ++j)
      mask.push_back(j * stride);
    return vector::ShuffleOp::create(e.b, all, all, mask);
  }
  SmallVector<Value> lanes;
  for (int64_t j = 0; j < vw; ++j)
    lanes.push_back(
        e.load(src.mem, srcPtr, src.mem, e.add(first, e.c64(j * stride))));
  return vector::FromElementsOp::create(e.b, vt, lanes);
}

void KernelBuilder::emitInnerCopy(const KernelLoop &l, Range r, Value s,
                                  Value d) {
  int64_t vw = k.plan.vectorWidth;
  if (l.dstStride != 1 || vw == 1)
    return scalarCopy(l, r.lo, r.hi, s, d);
  // Same memory type is not enough: i8 -> i1 stores x != 0.
  bool sameBits = src.mem == dst.mem && src.isBool == dst.isBool;
  bool streaming = k.plan.streamingStores;
  // Whole contiguous runs of one type from 4 KiB on: libc's memcpy is at
  // bandwidth and switches to non-temporal stores on its own for large
  // sizes. Shorter runs stay inline, where a call per run costs more than
  // it saves.
  if (l.srcStride == 1 && sameBits && !streaming &&
      l.size * dst.bytes >= cpu().tuning.libcCopyBytes) {
    Value n = arith::SubIOp::create(e.b, r.hi, r.lo);
    LLVM::MemcpyOp::create(e.b, e.gep(dstPtr, dst.mem, e.add(d, r.lo)),
                           e.gep(srcPtr, src.mem, e.add(s, r.lo)),
                           e.mulc(n, dst.bytes),
                           /*isVolatile=*/false);
    return;
  }
  Value lo = r.lo;
  if (streaming) {
    usesStreaming = true;
    // Peel to a vector-aligned destination: x86 only streams aligned
    // stores.
    int64_t vbytes = vw * dst.bytes;
    Value addr = LLVM::PtrToIntOp::create(
        e.b, e.i64, e.gep(dstPtr, dst.mem, e.add(d, r.lo)));
    Value mis = arith::RemUIOp::create(e.b, addr, e.c64(vbytes));
    Value peelBytes = arith::RemUIOp::create(
        e.b, arith::SubIOp::create(e.b, e.c64(vbytes), mis), e.c64(vbytes));
    Value peel = arith::DivUIOp::create(e.b, peelBytes, e.c64(dst.bytes));
    Value peelEnd = e.minI(e.add(r.lo, peel), r.hi);
    scalarCopy(l, r.lo, peelEnd, s, d);
    lo = peelEnd;
  }
  Value count = arith::SubIOp::create(e.b, r.hi, lo);
  // A deinterleaving load reads past its last lane: stop one vector
  // early so that it never reads beyond the run's last element.
  if (l.srcStride >= 2 && l.srcStride <= cpu().tuning.maxDeinterleave)
    count = arith::SubIOp::create(e.b, count, e.c64(1));
  Value vecEnd =
      e.add(lo, e.mulc(arith::DivSIOp::create(e.b, count, e.c64(vw)), vw));
  Value splat;
  if (l.srcStride == 0) {
    Value v = e.load(src.mem, srcPtr, src.mem, s);
    splat = vector::BroadcastOp::create(e.b, e.vecOf(src.mem, vw), v);
  }
  noteCopyVectors(vw);
  e.forLoop(lo, vecEnd, vw, [&](Value i) {
    Value v = splat ? splat : loadLanes(s, i, l.srcStride, vw);
    e.store(e.convert(v, src, dst), dstPtr, dst.mem, e.add(d, i), streaming);
  });
  scalarCopy(l, vecEnd, r.hi, s, d);
}

/// Elements from destination element `index` to the next line boundary.
Value KernelBuilder::lineShift(Value index) {
  Value addr =
      LLVM::PtrToIntOp::create(e.b, e.i64, e.gep(dstPtr, dst.mem, index));
  Value toBoundary =
      arith::AndIOp::create(e.b, arith::SubIOp::create(e.b, e.c64(0), addr),
                            e.c64(kCacheLineBytes - 1));
  return arith::DivUIOp::create(e.b, toBoundary, e.c64(dst.bytes));
}

/// Joins equal-length vectors end to end (pairwise, so LLVM sees a
/// balanced tree of shuffles).
Value KernelBuilder::concat(ArrayRef<Value> parts) {
  if (parts.size() == 1)
    return parts[0];
  size_t half = parts.size() / 2;
  Value lo = concat(parts.take_front(half)),
        hi = concat(parts.drop_front(half));
  int64_t total = cast<VectorType>(lo.getType()).getNumElements() +
                  cast<VectorType>(hi.getType()).getNumElements();
  SmallVector<int64_t> mask;
  for (int64_t c = 0; c < total; ++c)
    mask.push_back(c);
  return e.shuffle(lo, hi, mask);
}
