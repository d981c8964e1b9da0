//===- RuntimeExtents.cpp - Kernels with run-time sizes and strides -------===//
//
// Run-time-extent mode (CPUOptions::runtimeExtents): chunk functions that
// read every loop size and every stride other than an exact 0 or 1 from the
// extents array (CPUKernels.h, kExt*), and the raw entry point's side: the
// array, the split and the accumulator counts derived from it with the
// planner's rule (splitAcrossThreads, chunkGrain), and the accumulators'
// serial code. Copies: a loop nest whose innermost loop moves vectors where
// the destination's stride is 1 (a memcpy call for long same-type runs);
// reductions: vector accumulators along unit strides, rows in groups;
// argmax/argmin serial in logical order. Transposes are in
// RuntimeTransposes.cpp. Indices are 64-bit.
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "layout/Compiler/Semantics/Reductions.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

//===----------------------------------------------------------------------===//
// Static facts
//===----------------------------------------------------------------------===//

/// The loop chunks split (runtimeSplitLoops).
int64_t KernelBuilder::rtParallelLoop() const {
  return runtimeSplitLoops(k.plan, isArgReduction()).loop;
}

/// A copy's second choice of split loop (runtimeSplitLoops), or -1. Its index
/// goes to the extents (rtSplitSlot).
int64_t KernelBuilder::rtSplitFallback() const {
  return runtimeSplitLoops(k.plan, isArgReduction()).fallback;
}

/// Chunks accumulate their own output sets, combined in chunk order.
bool KernelBuilder::rtPartials() const {
  return k.kind == KernelKind::Reduce && !isArgReduction() &&
         !k.plan.loops.empty() && k.plan.loops.front().reduced &&
         rtParallelLoop() == 0;
}

int64_t KernelBuilder::extentSlots() const {
  return extLoopSlot(k.plan.loops.size()) +
         (isArgReduction() ? 2 : 0) * k.src.rank() +
         (rtSplitFallback() >= 0 ? 1 : 0);
}

/// Copies with a fallback split loop: the loop chunks split.
int64_t KernelBuilder::rtSplitSlot() const {
  return extLoopSlot(k.plan.loops.size());
}

/// A stride that is exactly 0 or 1 for every shape of the stride order:
/// reduced loops' destination strides, and the unit strides the plan's
/// strategy relies on. Other strides are read at run time.
std::optional<int64_t> KernelBuilder::staticStride(size_t loop,
                                                   bool source) const {
  const KernelLoop &l = k.plan.loops[loop];
  int64_t stride = source ? l.srcStride : l.dstStride;
  if (stride == 0 || stride == 1)
    return stride;
  return std::nullopt;
}

Value KernelBuilder::scaled(Value i, size_t loop, bool source) {
  if (std::optional<int64_t> st = staticStride(loop, source))
    return e.mulc(i, *st);
  return e.mul(i, source ? rtSrcStrides[loop] : rtDstStrides[loop]);
}

cpu::Range KernelBuilder::rtRange(size_t loop) {
  int64_t l = loop;
  if (rtPanel && k.plan.tiledLoops && l == k.plan.tiledLoops->first)
    return *rtPanel;
  if (rtBlock && k.plan.tiledLoops && l == k.plan.tiledLoops->second)
    return *rtBlock;
  if (rtSplitFallback() >= 0 &&
      (l == rtParallelLoop() || l == rtSplitFallback())) {
    Value split =
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, rtSplit, e.c64(l));
    return {arith::SelectOp::create(e.b, split, begin, e.c64(0)),
            arith::SelectOp::create(e.b, split, end, rtSizes[loop])};
  }
  if (rtParallelLoop() == l)
    return {begin, end};
  return {e.c64(0), rtSizes[loop]};
}

/// The static tiles' panels (TileNest::plane) on the extents: where the
/// destination rows do not stream whole lines and a spans more than two
/// panels' rows, `body` runs once per panelRows rows of a (rtPanel), so
/// that each column pass's partial destination lines are finished while
/// they are still in L2; else once, over the chunk's rows.
void KernelBuilder::rtPanels(function_ref<void()> body) {
  int64_t a = k.plan.tiledLoops->first;
  int64_t rows = cpu().tuning.panelRows;
  Range ra = rtRange(a);
  Value len = arith::SubIOp::create(e.b, ra.hi, ra.lo);
  Value noStream = e.not_(rtStream);
  Value panels = arith::AndIOp::create(
      e.b,
      arith::CmpIOp::create(e.b, arith::CmpIPredicate::sgt, len,
                            e.c64(2 * rows)),
      arith::OrIOp::create(e.b, noStream, rtRowsOffLines(rtDstStrides[a])));
  Value step =
      arith::SelectOp::create(e.b, panels, e.c64(rows), e.maxI(len, e.c64(1)));
  e.forLoop(ra.lo, ra.hi, step, [&](Value a0) {
    rtPanel = Range{a0, e.minI(e.add(a0, step), ra.hi)};
    body();
    rtPanel.reset();
  });
}

//===----------------------------------------------------------------------===//
// The raw entry point's side
//===----------------------------------------------------------------------===//

namespace {
/// i64 helpers on run-time values for the split rule.
struct SplitMath {
  Emitter &e;
  Value sel(Value c, Value x, Value y) {
    return arith::SelectOp::create(e.b, c, x, y);
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(e.b, p, x, y);
  }
  Value max(Value x, Value y) { return arith::MaxSIOp::create(e.b, x, y); }
  Value min(Value x, Value y) { return arith::MinSIOp::create(e.b, x, y); }
  Value div(Value x, Value y) { return arith::DivSIOp::create(e.b, x, y); }
  /// ceil(x / y) for x >= 0, y >= 1.
  Value ceilDiv(Value x, Value y) {
    return div(e.add(x, arith::SubIOp::create(e.b, y, e.c64(1))), y);
  }
  /// The planner's evenChunks.
  Value evenChunks(Value units, Value chunks) {
    Value one = e.c64(1);
    Value trivial =
        arith::OrIOp::create(e.b, cmp(arith::CmpIPredicate::sle, units, one),
                             cmp(arith::CmpIPredicate::sle, chunks, one));
    Value safe = max(chunks, one);
    Value per = ceilDiv(max(units, one), safe);
    return sel(trivial, one, ceilDiv(max(units, one), per));
  }
};
} // namespace

/// Copies whose traffic exceeds the presets' cacheBytes (the planner's
/// rule; the host preset's L3 is not recorded in the plan).
Value KernelBuilder::rtStreamingTraffic(Value elements) {
  return arith::CmpIOp::create(e.b, arith::CmpIPredicate::sgt,
                               e.mulc(elements, src.bytes + dst.bytes),
                               e.c64(cpuTarget(/*avx512=*/false).cacheBytes));
}

/// kExtStream: 1 where a copy's stores stream, 2 where they also join runs,
/// else 0.
Value KernelBuilder::rtStreams(const KernelExtents &x, Value elements) {
  SplitMath m{e};
  TargetInfo target = cpuTarget(/*avx512=*/false);
  Value one = e.c64(1);
  // Copies whose traffic exceeds the presets' cacheBytes stream their
  // stores, as the planner decides, where they fill whole lines: transpose
  // tiles a line wide (checked per column in the kernel), one contiguous
  // run, runs of longRunBytes or more, or runs of whole lines.
  Value stream = e.c64(0);
  if (k.kind == KernelKind::Copy && !k.plan.loops.empty()) {
    size_t inner = k.plan.loops.size() - 1;
    Value big = rtStreamingTraffic(elements);
    Value fills = arith::ConstantIntOp::create(e.b, 1, 1);
    if (k.plan.strategy != KernelStrategy::Transpose && inner > 0) {
      Value runBytes = e.mulc(x.sizes[inner], dst.bytes);
      fills = arith::OrIOp::create(
          e.b,
          m.cmp(arith::CmpIPredicate::sge, runBytes,
                e.c64(target.longRunBytes)),
          m.cmp(
              arith::CmpIPredicate::eq,
              arith::AndIOp::create(e.b, runBytes, e.c64(kCacheLineBytes - 1)),
              e.c64(0)));
    }
    bool unitDst = staticStride(inner, false) == 1 ||
                   k.plan.strategy == KernelStrategy::Transpose;
    if (unitDst && k.plan.vectorWidth > 1)
      stream = arith::ExtUIOp::create(e.b, e.i64,
                                      arith::AndIOp::create(e.b, big, fills));
    // Runs of one line up to longRunBytes that fill a dense destination
    // back to back stream joined across their edge lines (the planner's
    // runsJoin): 2.
    if (rtJoinsRuns()) {
      Value runBytes = e.mulc(x.sizes[inner], dst.bytes);
      Value joins = arith::AndIOp::create(
          e.b, big,
          arith::AndIOp::create(e.b,
                                m.cmp(arith::CmpIPredicate::sge, runBytes,
                                      e.c64(kCacheLineBytes)),
                                m.cmp(arith::CmpIPredicate::slt, runBytes,
                                      e.c64(target.longRunBytes))));
      // Dense: in the order of the plan's destination strides, each loop
      // of more than one index steps by the elements of those before it.
      auto order = llvm::to_vector(llvm::seq<size_t>(0, k.plan.loops.size()));
      llvm::stable_sort(order, [&](size_t a, size_t b) {
        return k.plan.loops[a].dstStride < k.plan.loops[b].dstStride;
      });
      Value step = one;
      for (size_t i : order) {
        Value stride = x.dstStrides[i];
        Value fits = arith::OrIOp::create(
            e.b, m.cmp(arith::CmpIPredicate::eq, x.sizes[i], one),
            m.cmp(arith::CmpIPredicate::eq, stride, step));
        joins = arith::AndIOp::create(e.b, joins, fits);
        step = e.mul(step, x.sizes[i]);
      }
      stream = arith::SelectOp::create(e.b, joins, e.c64(2), stream);
    }
  }
  return stream;
}

/// Fills the extents array from `x` and derives the split as the planner
/// does (splitAcrossThreads, the reduction's partials budget, chunkGrain),
/// with the CPU presets' split parameters, which all CPU targets share:
/// chunk boundaries depend only on the shape.
RuntimeSplit KernelBuilder::storeExtents(const KernelExtents &x) {
  SplitMath m{e};
  RuntimeSplit sp;
  sp.ext = LLVM::AllocaOp::create(
      e.b, e.ptr, e.i64, e.c64(std::max<int64_t>(1, extentSlots())), 8);
  for (size_t i = 0; i < k.plan.loops.size(); ++i) {
    e.store(x.sizes[i], sp.ext, e.i64, e.c64(extLoopSlot(i)));
    e.store(x.srcStrides[i], sp.ext, e.i64, e.c64(extLoopSlot(i) + 1));
    e.store(x.dstStrides[i], sp.ext, e.i64, e.c64(extLoopSlot(i) + 2));
  }
  if (isArgReduction())
    for (int64_t d = 0; d < k.src.rank(); ++d) {
      int64_t slot = extLoopSlot(k.plan.loops.size()) + 2 * d;
      e.store(x.srcDimSizes[d], sp.ext, e.i64, e.c64(slot));
      e.store(x.srcDimStrides[d], sp.ext, e.i64, e.c64(slot + 1));
    }
  sp.outputs = x.outputs ? x.outputs : e.c64(0);
  sp.perOutput = x.perOutput ? x.perOutput : e.c64(0);
  e.store(sp.outputs, sp.ext, e.i64, e.c64(kExtOutputs));
  e.store(sp.perOutput, sp.ext, e.i64, e.c64(kExtPerOutput));

  TargetInfo target = cpuTarget(/*avx512=*/false);
  Value one = e.c64(1);
  Value elements = e.product(x.sizes);
  int64_t loop = rtParallelLoop();
  sp.n = one;
  sp.grain = one;
  sp.sets = one;
  if (loop >= 0) {
    Value size = x.sizes[loop];
    Value unit = one;
    if (k.plan.strategy == KernelStrategy::Transpose &&
        loop == k.plan.tiledLoops->second)
      unit = rtSplitUnitOfB(x, elements);
    if (int64_t fallback = rtSplitFallback(); fallback >= 0) {
      Value single = m.cmp(arith::CmpIPredicate::eq, size, one);
      size = m.sel(single, x.sizes[fallback], size);
      unit = m.sel(single, one, unit);
      e.store(m.sel(single, e.c64(fallback), e.c64(loop)), sp.ext, e.i64,
              e.c64(rtSplitSlot()));
    }
    Value units = m.ceilDiv(size, unit);
    Value traffic;
    Value read = e.mulc(elements, src.bytes);
    if (k.kind == KernelKind::Copy)
      traffic = e.mulc(elements, src.bytes + dst.bytes);
    else if (rtPartials())
      traffic = read;
    else
      traffic = e.add(read, e.mulc(sp.outputs, dst.bytes));
    Value byTraffic =
        m.max(one, m.div(traffic, e.c64(target.minBytesPerChunk)));
    Value chunks = m.evenChunks(
        units,
        m.min(e.c64(std::max<int64_t>(1, target.numThreads)), byTraffic));
    if (rtPartials()) {
      Value budget = m.min(m.div(read, e.c64(target.reducePartialsShare)),
                           e.c64(target.reducePartialsBytes));
      Value setBytes = e.mulc(sp.outputs, accumulator().bytes);
      // Halving from at most numThreads chunks takes at most 64 steps.
      for (int64_t step = 0;
           step < 64 && (int64_t(1) << step) < 2 * target.numThreads; ++step) {
        Value over = arith::AndIOp::create(
            e.b, m.cmp(arith::CmpIPredicate::sgt, chunks, one),
            m.cmp(arith::CmpIPredicate::sgt, e.mul(chunks, setBytes), budget));
        chunks = m.sel(over, m.div(chunks, e.c64(2)), chunks);
      }
      chunks = m.evenChunks(size, chunks);
    }
    sp.n = size;
    sp.grain = m.max(one, e.mul(m.ceilDiv(units, chunks), unit));
    if (rtPartials())
      sp.sets = m.max(one, m.ceilDiv(size, sp.grain));
  }
  e.store(sp.grain, sp.ext, e.i64, e.c64(kExtGrain));
  e.store(rtStreams(x, elements), sp.ext, e.i64, e.c64(kExtStream));
  sp.accCount = e.c64(0);
  if (k.kind == KernelKind::Reduce && !isArgReduction())
    sp.accCount = e.mul(sp.sets, sp.outputs);
  return sp;
}

/// Serial code in the raw entry point: accumulators to their identity.
void KernelBuilder::rtInit(Value acc, const RuntimeSplit &sp) {
  Elem a = accumulator();
  Value id = reductionIdentity(a);
  e.forLoop(e.c64(0), sp.accCount, 1,
            [&](Value i) { e.store(id, acc, a.mem, i); });
}

/// Serial code in the raw entry point: partial sets, combined in chunk
/// order into the first (set by set, so that each pass is a loop over the
/// outputs that LLVM vectorizes; each output combines in the same order),
/// to results.
void KernelBuilder::rtFinalize(Value acc, Value out, const RuntimeSplit &sp) {
  Elem a = accumulator();
  e.forLoop(e.c64(1), sp.sets, 1, [&](Value j) {
    Value set = e.mul(j, sp.outputs);
    e.forLoop(e.c64(0), sp.outputs, 1, [&](Value i) {
      Value v = reductionCombine(a, e.load(a.mem, acc, a.mem, i),
                                 e.load(a.mem, acc, a.mem, e.add(set, i)));
      e.store(v, acc, a.mem, i);
    });
  });
  e.forLoop(e.c64(0), sp.outputs, 1, [&](Value i) {
    Value v = e.load(a.mem, acc, a.mem, i);
    if (k.reduction == ReductionKind::Mean) {
      Value count = arith::SIToFPOp::create(e.b, a.mem, sp.perOutput);
      v = arith::DivFOp::create(e.b, v, count);
    }
    e.store(e.convert(v, a, dst), out, dst.mem, i);
  });
}

//===----------------------------------------------------------------------===//
// Chunk functions
//===----------------------------------------------------------------------===//

/// Reads the extents through the chunk's context `ctxPtr` (ctx[3]).
void KernelBuilder::rtLoadExtents(Value ctxPtr) {
  rtCtx = ctxPtr;
  rtExt = e.load(e.ptr, ctxPtr, e.ptr, e.c64(3));
  auto slot = [&](int64_t i) { return e.load(e.i64, rtExt, e.i64, e.c64(i)); };
  for (size_t i = 0; i < k.plan.loops.size(); ++i) {
    rtSizes.push_back(slot(extLoopSlot(i)));
    rtSrcStrides.push_back(staticStride(i, true) ? Value()
                                                 : slot(extLoopSlot(i) + 1));
    rtDstStrides.push_back(staticStride(i, false) ? Value()
                                                  : slot(extLoopSlot(i) + 2));
  }
  rtGrain = slot(kExtGrain);
  if (rtSplitFallback() >= 0)
    rtSplit = slot(rtSplitSlot());
  rtOutputs = slot(kExtOutputs);
  rtStream = arith::CmpIOp::create(e.b, arith::CmpIPredicate::ne,
                                   slot(kExtStream), e.c64(0));
  if (rtJoinsRuns())
    rtJoin = arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq,
                                   slot(kExtStream), e.c64(2));
}

void KernelBuilder::rtChunkBody(Value ctxPtr) {
  rtLoadExtents(ctxPtr);
  if (k.kind == KernelKind::Copy) {
    if (k.plan.strategy == KernelStrategy::Transpose)
      rtTranspose();
    else
      rtCopyNest(0, e.c64(0), e.c64(0));
  } else if (isArgReduction()) {
    rtArgReduction();
  } else {
    Value accBase = e.c64(0);
    if (rtPartials())
      accBase = e.mul(arith::DivSIOp::create(e.b, begin, rtGrain), rtOutputs);
    rtReduceNest(0, e.c64(0), accBase);
  }
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

void KernelBuilder::rtCopyNest(size_t depth, Value s, Value d) {
  Range r = rtRange(depth);
  if (depth + 1 == k.plan.loops.size())
    return rtInnerCopy(depth, r, s, d);
  e.forLoop(r.lo, r.hi, 1, [&](Value i) {
    copyIndices.push_back(i);
    rtCopyNest(depth + 1, e.add(s, scaled(i, depth, true)),
               e.add(d, scaled(i, depth, false)));
    copyIndices.pop_back();
  });
}

void KernelBuilder::rtScalarRun(size_t loop, Value lo, Value hi, Value s,
                                Value d) {
  e.forLoop(lo, hi, 1, [&](Value i) {
    Value v = e.load(src.mem, srcPtr, src.mem, e.add(s, scaled(i, loop, true)));
    e.store(e.convert(v, src, dst), dstPtr, dst.mem,
            e.add(d, scaled(i, loop, false)));
  });
}

/// The vector loop of a copy's innermost loop, whose destination stride is
/// 1: vector loads where the source's stride is 1, a splat where it is 0,
/// and by the run-time stride, deinterleaved loads for 2, reversed ones for
/// -1, lane by lane otherwise; then the scalar rest. Streaming stores peel
/// to an aligned destination first (x86 streams only aligned stores).
void KernelBuilder::rtVectorRun(size_t loop, Range r, Value s, Value d,
                                bool streaming) {
  int64_t vw = k.plan.vectorWidth;
  std::optional<int64_t> ss = staticStride(loop, true);
  Type vt = e.vecOf(src.mem, vw);
  Value lo = r.lo;
  noteCopyVectors(vw);
  if (streaming) {
    usesStreaming = true;
    int64_t vbytes = vw * dst.bytes;
    Value addr = LLVM::PtrToIntOp::create(
        e.b, e.i64, e.gep(dstPtr, dst.mem, e.add(d, r.lo)));
    Value mis = arith::RemUIOp::create(e.b, addr, e.c64(vbytes));
    Value peelBytes = arith::RemUIOp::create(
        e.b, arith::SubIOp::create(e.b, e.c64(vbytes), mis), e.c64(vbytes));
    Value peel = arith::DivUIOp::create(e.b, peelBytes, e.c64(dst.bytes));
    Value peelEnd = e.minI(e.add(r.lo, peel), r.hi);
    rtScalarRun(loop, r.lo, peelEnd, s, d);
    lo = peelEnd;
  }
  auto run = [&](int64_t stride, function_ref<Value(Value)> lanes) {
    Value count = arith::SubIOp::create(e.b, r.hi, lo);
    // A deinterleaving load reads one element past its last lane.
    if (stride == 2)
      count = arith::SubIOp::create(e.b, count, e.c64(1));
    Value vecEnd =
        e.add(lo, e.mulc(arith::DivSIOp::create(
                             e.b, arith::MaxSIOp::create(e.b, count, e.c64(0)),
                             e.c64(vw)),
                         vw));
    e.forLoop(lo, vecEnd, vw, [&](Value i) {
      e.store(e.convert(lanes(i), src, dst), dstPtr, dst.mem, e.add(d, i),
              streaming);
    });
    rtScalarRun(loop, vecEnd, r.hi, s, d);
  };
  if (ss == 1)
    return run(
        1, [&](Value i) { return e.load(vt, srcPtr, src.mem, e.add(s, i)); });
  if (ss == 0) {
    Value splat = vector::BroadcastOp::create(
        e.b, vt, e.load(src.mem, srcPtr, src.mem, s));
    return run(0, [&](Value) { return splat; });
  }
  Value stride = rtSrcStrides[loop];
  auto isStride = [&](int64_t v) {
    return arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, stride,
                                 e.c64(v));
  };
  auto general = [&] {
    run(3, [&](Value i) {
      Value first = e.add(s, e.mul(i, stride));
      SmallVector<Value> lanes;
      for (int64_t j = 0; j < vw; ++j)
        lanes.push_back(
            e.load(src.mem, srcPtr, src.mem, e.add(first, e.mulc(stride, j))));
      return vector::FromElementsOp::create(e.b, vt, lanes).getResult();
    });
  };
  auto reversed = [&] {
    run(-1, [&](Value i) {
      Value first = arith::SubIOp::create(e.b, s, i);
      Value v = e.load(vt, srcPtr, src.mem, e.add(first, e.c64(-(vw - 1))));
      SmallVector<int64_t> mask;
      for (int64_t j = vw - 1; j >= 0; --j)
        mask.push_back(j);
      return vector::ShuffleOp::create(e.b, v, v, mask).getResult();
    });
  };
  auto deinterleaved = [&] {
    run(2, [&](Value i) {
      Value first = e.add(s, e.mulc(i, 2));
      Value all =
          concat({e.load(vt, srcPtr, src.mem, first),
                  e.load(vt, srcPtr, src.mem, e.add(first, e.c64(vw)))});
      SmallVector<int64_t> mask;
      for (int64_t j = 0; j < vw; ++j)
        mask.push_back(2 * j);
      return vector::ShuffleOp::create(e.b, all, all, mask).getResult();
    });
  };
  e.ifElse(isStride(2), deinterleaved,
           [&] { e.ifElse(isStride(-1), reversed, general); });
}

/// The innermost loop of a copy: rtVectorRun where the destination's
/// stride is 1 (streaming where the extents say), same-type contiguous runs
/// from the tuning's libc threshold through memcpy, else element by
/// element.
void KernelBuilder::rtInnerCopy(size_t loop, Range r, Value s, Value d) {
  int64_t vw = k.plan.vectorWidth;
  std::optional<int64_t> ss = staticStride(loop, true),
                         ds = staticStride(loop, false);
  if (ds != 1 || vw == 1)
    return rtScalarRun(loop, r.lo, r.hi, s, d);
  bool sameBits = src.mem == dst.mem && src.isBool == dst.isBool;
  auto normal = [&] {
    if (ss != 1 || !sameBits)
      return rtVectorRun(loop, r, s, d, false);
    Value n = arith::SubIOp::create(e.b, r.hi, r.lo);
    Value bytes = e.mulc(n, dst.bytes);
    Value longRun = arith::CmpIOp::create(e.b, arith::CmpIPredicate::sge, bytes,
                                          e.c64(cpu().tuning.libcCopyBytes));
    e.ifElse(
        longRun,
        [&] {
          LLVM::MemcpyOp::create(e.b, e.gep(dstPtr, dst.mem, e.add(d, r.lo)),
                                 e.gep(srcPtr, src.mem, e.add(s, r.lo)), bytes,
                                 /*isVolatile=*/false);
        },
        [&] { rtVectorRun(loop, r, s, d, false); });
  };
  auto streamed = [&] {
    if (!rtJoinsRuns())
      return rtVectorRun(loop, r, s, d, true);
    e.ifElse(
        rtJoin,
        [&] {
          Value total = e.product(rtSizes);
          joinedRun(
              rtSizes[loop], s, d, [&] { return rtPreviousRunSource(s); },
              [&](Value lo, Value hi) { rtScalarRun(loop, lo, hi, s, d); },
              [&] { return total; });
        },
        [&] { rtVectorRun(loop, r, s, d, true); });
  };
  e.ifElse(rtStream, streamed, normal);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

void KernelBuilder::rtReduceNest(size_t depth, Value s, Value a) {
  const KernelLoop &l = k.plan.loops[depth];
  Range r = rtRange(depth);
  if (depth + 1 == k.plan.loops.size())
    return l.reduced ? rtReduceRun(depth, r, s, a)
                     : rtReduceColumns(depth, r, s, a, 1, Value());
  const KernelLoop &inner = k.plan.loops[depth + 1];
  // Rows of a kept unit-stride row join the accumulator row in groups,
  // combined pairwise first (as the static kernels' groups).
  if (l.reduced && depth + 2 == k.plan.loops.size() && !inner.reduced &&
      staticStride(depth + 1, true) == 1 &&
      staticStride(depth + 1, false) == 1) {
    const int64_t kRows = cpu().tuning.reduceRowGroup;
    Value rowStride = staticStride(depth, true)
                          ? e.c64(*staticStride(depth, true))
                          : rtSrcStrides[depth];
    Value groupsEnd = floorTo(r.lo, r.hi, kRows);
    // Inputs larger than L2 prefetch each row's vector a group ahead (at
    // least the tuning's distance) into L2, as the static groups do.
    Value bytes = e.c64(src.bytes);
    for (Value size : rtSizes)
      bytes = e.mul(bytes, size);
    Value large = arith::CmpIOp::create(e.b, arith::CmpIPredicate::sgt, bytes,
                                        e.c64(cpu().l2Bytes));
    Value groupBytes = e.mulc(rowStride, kRows * src.bytes);
    Value ahead = arith::MaxSIOp::create(
        e.b,
        arith::MaxSIOp::create(
            e.b, groupBytes, arith::SubIOp::create(e.b, e.c64(0), groupBytes)),
        e.c64(cpu().tuning.reduceGroupPrefetchBytes));
    ahead = arith::SelectOp::create(
        e.b,
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::slt, rowStride,
                              e.c64(0)),
        arith::SubIOp::create(e.b, e.c64(0), ahead), ahead);
    auto groups = [&](Value prefetch) {
      e.forLoop(r.lo, groupsEnd, kRows, [&](Value i) {
        rtReduceColumns(depth + 1, rtRange(depth + 1),
                        e.add(s, e.mul(i, rowStride)), a, kRows, rowStride,
                        prefetch);
      });
    };
    e.ifElse(
        large, [&] { groups(ahead); }, [&] { groups(Value()); });
    e.forLoop(groupsEnd, r.hi, 1, [&](Value i) {
      rtReduceColumns(depth + 1, rtRange(depth + 1),
                      e.add(s, e.mul(i, rowStride)), a, 1, Value());
    });
    return;
  }
  e.forLoop(r.lo, r.hi, 1, [&](Value i) {
    rtReduceNest(depth + 1, e.add(s, scaled(i, depth, true)),
                 e.add(a, scaled(i, depth, false)));
  });
}

/// Innermost loop reduced: vector accumulators along a unit stride, summed
/// per block and across blocks (as emitReduceRun), then the scalar rest.
/// Contiguous runs of 2-byte elements in inputs larger than L2 (checked
/// on the extents) prefetch as the static runPrefetchBytes says.
void KernelBuilder::rtReduceRun(size_t loop, Range r, Value s, Value a) {
  if (src.bytes != 2 || staticStride(loop, true) != 1 ||
      k.plan.vectorWidth == 1)
    return rtReduceRunAhead(loop, r, s, a, 0);
  Value elements = e.product(rtSizes);
  Value big =
      arith::CmpIOp::create(e.b, arith::CmpIPredicate::sgt,
                            e.mulc(elements, src.bytes), e.c64(cpu().l2Bytes));
  e.ifElse(
      big,
      [&] { rtReduceRunAhead(loop, r, s, a, cpu().tuning.runPrefetchBytes); },
      [&] { rtReduceRunAhead(loop, r, s, a, 0); });
}

void KernelBuilder::rtReduceRunAhead(size_t loop, Range r, Value s, Value a,
                                     int64_t ahead) {
  Elem acc = accumulator();
  int64_t vw = k.plan.vectorWidth;
  const int64_t kAccs = cpu().tuning.reduceAccumulators;
  const int64_t kBlock = cpu().tuning.reduceBlock;
  Value total;
  Value tail = r.lo;
  if (staticStride(loop, true) == 1 && vw > 1) {
    int64_t step = kAccs * vw;
    Type vacc = e.vecOf(acc.mem, vw), vsrc = e.vecOf(src.mem, vw);
    Value vecEnd = floorTo(r.lo, r.hi, step);
    Value id = reductionIdentity(acc, vacc);
    Value sum =
        e.forLoopCarry(
             r.lo, vecEnd, kBlock, ValueRange{id},
             [&](Value blk, ValueRange outer) -> SmallVector<Value> {
               Value blkEnd = e.minI(e.add(blk, e.c64(kBlock)), vecEnd);
               SmallVector<Value> init(kAccs, reductionIdentity(acc, vacc));
               ValueRange accs = e.forLoopCarry(
                   blk, blkEnd, step, init,
                   [&](Value i, ValueRange in) -> SmallVector<Value> {
                     if (ahead)
                       for (int64_t at = 0; at < step * src.bytes;
                            at += kCacheLineBytes)
                         e.prefetch(srcPtr, src.mem, e.add(s, i), ahead + at,
                                    /*locality=*/2);
                     SmallVector<Value> next;
                     for (int64_t j = 0; j < kAccs; ++j) {
                       Value v = e.load(vsrc, srcPtr, src.mem,
                                        e.add(s, e.add(i, e.c64(j * vw))));
                       next.push_back(reductionCombine(acc, in[j],
                                                       e.convert(v, src, acc)));
                     }
                     return next;
                   });
               return {reductionCombine(acc, outer[0],
                                        reductionPairwise(acc, accs))};
             })
            .front();
    total = reductionHorizontal(acc, sum);
    tail = vecEnd;
  } else {
    total = reductionIdentity(acc);
  }
  total = e.forLoopCarry(
               tail, r.hi, 1, ValueRange{total},
               [&](Value i, ValueRange in) -> SmallVector<Value> {
                 Value v = e.load(src.mem, srcPtr, src.mem,
                                  e.add(s, scaled(i, loop, true)));
                 return {reductionCombine(acc, in[0], e.convert(v, src, acc))};
               })
              .front();
  Value old = e.freezeLoad(acc.mem, accPtr, acc.mem, a);
  e.store(reductionCombine(acc, old, total), accPtr, acc.mem, a);
}

/// Innermost loop kept: `rows` input rows `rowStride` apart combine
/// (pairwise) into the accumulator row, vectors where both strides are 1;
/// vector loads prefetch `ahead` bytes further (null: none).
void KernelBuilder::rtReduceColumns(size_t loop, Range r, Value s, Value a,
                                    int64_t rows, Value rowStride,
                                    Value ahead) {
  Elem acc = accumulator();
  int64_t vw = k.plan.vectorWidth;
  auto combineRows = [&](function_ref<Value(Value)> row) {
    SmallVector<Value> vals;
    for (int64_t j = 0; j < rows; ++j)
      vals.push_back(row(j ? e.mulc(rowStride, j) : e.c64(0)));
    return reductionFold(acc, std::move(vals));
  };
  Value tail = r.lo;
  if (staticStride(loop, true) == 1 && staticStride(loop, false) == 1 &&
      vw > 1) {
    Value vecEnd = floorTo(r.lo, r.hi, vw);
    Type vacc = e.vecOf(acc.mem, vw), vsrc = e.vecOf(src.mem, vw);
    auto vector = [&](Value i) {
      Value v = combineRows([&](Value off) {
        Value at = e.add(s, e.add(i, off));
        if (ahead)
          LLVM::Prefetch::create(e.b,
                                 LLVM::GEPOp::create(e.b, e.ptr,
                                                     e.b.getI8Type(),
                                                     e.gep(srcPtr, src.mem, at),
                                                     ValueRange{ahead}),
                                 /*rw=*/0, /*locality=*/2, /*cache=*/1);
        return e.convert(e.load(vsrc, srcPtr, src.mem, at), src, acc);
      });
      Value old = e.freezeLoad(vacc, accPtr, acc.mem, e.add(a, i));
      e.store(reductionCombine(acc, old, v), accPtr, acc.mem, e.add(a, i));
    };
    // Groups of rows take two vectors a step, as the static kernels'
    // unrolled loops do: the loop's own work is a tenth of the step's.
    Value pairsEnd = r.lo;
    if (rows > 1) {
      pairsEnd = floorTo(r.lo, vecEnd, 2 * vw);
      e.forLoop(r.lo, pairsEnd, 2 * vw, [&](Value i) {
        vector(i);
        vector(e.add(i, e.c64(vw)));
      });
    }
    e.forLoop(pairsEnd, vecEnd, vw, vector);
    tail = vecEnd;
  }
  e.forLoop(tail, r.hi, 1, [&](Value i) {
    Value v = combineRows([&](Value off) {
      return e.convert(e.load(src.mem, srcPtr, src.mem,
                              e.add(s, e.add(scaled(i, loop, true), off))),
                       src, acc);
    });
    Value at = e.add(a, scaled(i, loop, false));
    Value old = e.freezeLoad(acc.mem, accPtr, acc.mem, at);
    e.store(reductionCombine(acc, old, v), accPtr, acc.mem, at);
  });
}

void KernelBuilder::rtArgLoop(ArrayRef<int64_t> dims, size_t depth, Value s,
                              function_ref<void(Value)> body) {
  if (depth == dims.size())
    return body(s);
  int64_t slot = extLoopSlot(k.plan.loops.size()) + 2 * dims[depth];
  Value size = e.load(e.i64, rtExt, e.i64, e.c64(slot));
  Value stride = e.load(e.i64, rtExt, e.i64, e.c64(slot + 1));
  e.forLoop(e.c64(0), size, 1, [&](Value i) {
    rtArgLoop(dims, depth + 1, e.add(s, e.mul(i, stride)), body);
  });
}

/// argmax/argmin: as emitArgReduction, over the source's logical dims read
/// from the extents array.
void KernelBuilder::rtArgReduction() {
  SmallVector<int64_t> kept, reduced;
  for (int64_t d = 0; d < k.src.rank(); ++d)
    (llvm::is_contained(k.reducedDims, d) ? reduced : kept).push_back(d);
  Type i64 = e.i64;
  Value one = e.c64(1);
  Value bestSlot =
      LLVM::AllocaOp::create(e.b, e.ptr, accumulator().mem, one, 8);
  Value idxSlot = LLVM::AllocaOp::create(e.b, e.ptr, i64, one, 8);
  Value runSlot = LLVM::AllocaOp::create(e.b, e.ptr, i64, one, 8);
  Value outSlot = LLVM::AllocaOp::create(e.b, e.ptr, i64, one, 8);
  e.store(e.c64(0), outSlot, i64, e.c64(0));
  rtArgLoop(kept, 0, e.c64(0), [&](Value s) {
    e.store(e.c64(kArgNoIndex), idxSlot, i64, e.c64(0));
    e.store(e.c64(0), runSlot, i64, e.c64(0));
    rtArgLoop(reduced, 0, s, [&](Value at) {
      // The element step of reducedLoop, which reads no extents.
      reducedLoop(reduced, reduced.size(), at, bestSlot, idxSlot, runSlot);
    });
    Value o = e.load(i64, outSlot, i64, e.c64(0));
    Value idx = e.load(i64, idxSlot, i64, e.c64(0));
    e.store(idx, dstPtr, i64, o);
    e.store(e.add(o, e.c64(1)), outSlot, i64, e.c64(0));
  });
}
