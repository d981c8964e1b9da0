//===- ReduceKernels.cpp - Reductions and their accumulators --------------===//
//
// Reductions: ReduceOps (identities and combining, NaN-propagating amax/amin,
// by the Semantics module's reductionRules),
// reduced runs accumulated in registers, kept rows accumulated into a row of
// outputs in groups, argmax/argmin in logical order, and the raw entry point's
// serial code that initializes the accumulators and turns partials into
// results.
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "layout/Compiler/Semantics/Reductions.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <functional>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

namespace {

//===----------------------------------------------------------------------===//
// Reductions: combining and identities
//===----------------------------------------------------------------------===//

struct ReduceOps {
  /// A `kind` reduction of values of type `values` in accumulator `acc`.
  ReduceOps(Emitter &e, ReductionKind kind, Elem acc, const Elem &values)
      : e(e), kind(kind), acc(std::move(acc)),
        rules(reductionRules(kind, this->acc, values)) {}

  Emitter &e;
  ReductionKind kind;
  Elem acc;
  ReductionRules rules;

  Value identity(Type t) {
    Type el = getElementTypeOrSelf(t);
    const ReductionIdentity &id = rules.identity;
    TypedAttr attr;
    if (acc.isFloat) {
      auto ft = cast<FloatType>(el);
      const llvm::fltSemantics &sem = ft.getFloatSemantics();
      llvm::APFloat v = llvm::APFloat::getZero(sem);
      if (id.kind == IdentityKind::One)
        v = llvm::APFloat::getOne(sem);
      else if (id.kind == IdentityKind::NegInfinity)
        v = llvm::APFloat::getInf(sem, /*Negative=*/true);
      else if (id.kind == IdentityKind::Infinity)
        v = llvm::APFloat::getInf(sem, /*Negative=*/false);
      attr = FloatAttr::get(el, v);
    } else {
      unsigned w = el.getIntOrFloatBitWidth();
      llvm::APInt v(w, 0);
      if (id.kind == IdentityKind::One)
        v = llvm::APInt(w, 1);
      else if (id.kind == IdentityKind::IntegerBound)
        v = id.boundIsSigned ? id.bound.sext(w) : id.bound.zext(w);
      attr = IntegerAttr::get(el, v);
    }
    return constant(t, attr);
  }

  /// A quiet NaN of float type (or vector type) t.
  Value quietNaN(Type t) {
    Type el = getElementTypeOrSelf(t);
    return constant(
        t, FloatAttr::get(el, llvm::APFloat::getQNaN(
                                  cast<FloatType>(el).getFloatSemantics())));
  }

  /// `attr` of t's element type, splat when t is a vector.
  Value constant(Type t, TypedAttr attr) {
    if (auto vt = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(e.b, vt,
                                       SplatElementsAttr::get(vt, attr));
    return arith::ConstantOp::create(e.b, attr);
  }

  /// Combines `vals` pairwise (a balanced tree, in order). A float
  /// amax/amin takes maxps/minps alone and notes NaNs apart, one unordered
  /// compare per pair, the result NaN where any value was: 18 instructions
  /// per vector of 8 rows instead of 24.
  Value fold(SmallVector<Value> vals) {
    bool hoistNaN = rules.propagatesNaN && vals.size() > 1;
    Value nan;
    if (hoistNaN)
      for (size_t j = 0; j < vals.size(); j += 2) {
        Value y = vals[std::min(j + 1, vals.size() - 1)];
        Value pair =
            arith::CmpFOp::create(e.b, arith::CmpFPredicate::UNO, vals[j], y);
        nan = nan ? arith::OrIOp::create(e.b, nan, pair).getResult() : pair;
      }
    for (size_t width = 1; width < vals.size(); width *= 2)
      for (size_t j = 0; j + width < vals.size(); j += 2 * width)
        vals[j] = hoistNaN ? pick(vals[j], vals[j + width])
                           : combine(vals[j], vals[j + width]);
    if (!hoistNaN)
      return vals[0];
    return arith::SelectOp::create(e.b, nan, quietNaN(vals[0].getType()),
                                   vals[0])
        .getResult();
  }

  /// Combines `vals` as a balanced tree of adjacent pairs, ((v0, v1), (v2,
  /// v3)) for four: partial sums of similar size, in one fixed order. Each
  /// level creates its pairs last to first.
  Value combinePairwise(ValueRange vals) {
    SmallVector<Value> level(vals.begin(), vals.end());
    while (level.size() > 1) {
      SmallVector<Value> next((level.size() + 1) / 2);
      if (level.size() % 2)
        next.back() = level.back();
      for (size_t i = level.size() / 2; i-- > 0;)
        next[i] = combine(level[2 * i], level[2 * i + 1]);
      level = std::move(next);
    }
    return level.front();
  }

  Value combine(Value x, Value y) {
    auto &b = e.b;
    switch (kind) {
    case ReductionKind::Sum:
    case ReductionKind::Mean:
      return acc.isFloat ? arith::AddFOp::create(b, x, y).getResult()
                         : arith::AddIOp::create(b, x, y).getResult();
    case ReductionKind::Prod:
      return acc.isFloat ? arith::MulFOp::create(b, x, y).getResult()
                         : arith::MulIOp::create(b, x, y).getResult();
    case ReductionKind::Amax:
      if (rules.propagatesNaN)
        return propagatingNaN(x, y, arith::CmpFPredicate::OGT);
      return acc.isUnsigned ? arith::MaxUIOp::create(b, x, y).getResult()
                            : arith::MaxSIOp::create(b, x, y).getResult();
    case ReductionKind::Amin:
      if (rules.propagatesNaN)
        return propagatingNaN(x, y, arith::CmpFPredicate::OLT);
      return acc.isUnsigned ? arith::MinUIOp::create(b, x, y).getResult()
                            : arith::MinSIOp::create(b, x, y).getResult();
    case ReductionKind::Argmax:
    case ReductionKind::Argmin:
      break;
    }
    llvm_unreachable("arg reductions do not combine values");
  }

  /// x if it is NaN, else (x `pred` y) ? x : y: y if it is NaN, and y when
  /// they compare equal (+0 and -0), as PyTorch's vectorized maximum and
  /// minimum. Three instructions on x86 (maxps/minps with a memory operand,
  /// a NaN compare and a blend) where llvm.maximum takes four.
  Value propagatingNaN(Value x, Value y, arith::CmpFPredicate pred) {
    auto &b = e.b;
    Value nan = arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, x, x);
    return arith::SelectOp::create(b, nan, x, pickPred(x, y, pred));
  }

  /// Float amax/amin without NaN propagation: (x pred y) ? x : y, y when
  /// either is NaN (maxps/minps).
  Value pick(Value x, Value y) {
    return pickPred(x, y,
                    rules.keepsLarger ? arith::CmpFPredicate::OGT
                                      : arith::CmpFPredicate::OLT);
  }

  Value pickPred(Value x, Value y, arith::CmpFPredicate pred) {
    // Frozen, so that LLVM keeps the compare-and-select that x86 matches to
    // maxps/minps rather than merge it with a NaN select into one blend.
    return LLVM::FreezeOp::create(
        e.b, arith::SelectOp::create(
                 e.b, arith::CmpFOp::create(e.b, pred, x, y), x, y));
  }

  /// Folds the lanes of `v` in lane order.
  Value horizontal(Value v) {
    auto vt = dyn_cast<VectorType>(v.getType());
    if (!vt)
      return v;
    Value r = vector::ExtractOp::create(e.b, v, ArrayRef<int64_t>{0});
    for (int64_t i = 1; i < vt.getNumElements(); ++i)
      r = combine(r, vector::ExtractOp::create(e.b, v, ArrayRef<int64_t>{i}));
    return r;
  }
};

} // namespace

Value KernelBuilder::reductionIdentity(const Elem &acc, Type t) {
  return ReduceOps(e, k.reduction, acc, src).identity(t ? t : acc.mem);
}

Value KernelBuilder::reductionCombine(const Elem &acc, Value x, Value y) {
  return ReduceOps(e, k.reduction, acc, src).combine(x, y);
}

Value KernelBuilder::reductionPairwise(const Elem &acc, ValueRange vals) {
  return ReduceOps(e, k.reduction, acc, src).combinePairwise(vals);
}

Value KernelBuilder::reductionHorizontal(const Elem &acc, Value v) {
  return ReduceOps(e, k.reduction, acc, src).horizontal(v);
}

Value KernelBuilder::reductionFold(const Elem &acc, SmallVector<Value> vals) {
  return ReduceOps(e, k.reduction, acc, src).fold(std::move(vals));
}

/// Serial code in the raw entry point: accumulators to their identity.
void KernelBuilder::emitInit(Value acc) {
  Elem a = accumulator();
  ReduceOps ops(e, k.reduction, a, src);
  Value id = ops.identity(a.mem);
  e.forLoop(e.c64(0), e.c64(accumulatorCount()), 1,
            [&](Value i) { e.store(id, acc, a.mem, i); });
}

/// Serial code in the raw entry point: partials to results.
void KernelBuilder::emitFinalize(Value acc, Value out) {
  Elem a = accumulator();
  ReduceOps ops(e, k.reduction, a, src);
  Fallible<int64_t> outputs = numel(k.dst.sizes);
  Fallible<int64_t> inputs = numel(k.src.sizes);
  int64_t reducedCount = *outputs ? *inputs / *outputs : 0;
  int64_t sets = accumulatorSets(), stride = outputCount();
  e.forLoop(e.c64(0), e.c64(*outputs), 1, [&](Value i) {
    Value v = e.load(a.mem, acc, a.mem, i);
    if (sets > 1)
      v = e.forLoopCarry(
               e.c64(1), e.c64(sets), 1, ValueRange{v},
               [&](Value j, ValueRange r) -> SmallVector<Value> {
                 Value at = e.add(e.mulc(j, stride), i);
                 return {ops.combine(r[0], e.load(a.mem, acc, a.mem, at))};
               })
              .front();
    if (k.reduction == ReductionKind::Mean) {
      Value count = arith::ConstantOp::create(
          e.b, FloatAttr::get(a.mem, double(reducedCount)));
      v = arith::DivFOp::create(e.b, v, count);
    }
    e.store(e.convert(v, a, dst), out, dst.mem, i);
  });
}

void KernelBuilder::emitReduceNest(size_t depth, Value s, Value a) {
  const KernelLoop &l = k.plan.loops[depth];
  Range r = rangeOf(depth);
  if (depth + 1 == k.plan.loops.size())
    return l.reduced ? emitReduceRun(l, r, s, a)
                     : emitReduceColumns(l, r, s, a);
  const KernelLoop &inner = k.plan.loops[depth + 1];
  // Rows join the accumulator row in groups of 8, combined pairwise
  // first, so that the accumulators are loaded and stored once per group:
  // a row of accumulators over a quarter of L1 and the input rows
  // streaming past it evict each other, and in cache the accumulator
  // loads, stores and combines bound the kernel. A group's rows are
  // separate streams, more than the hardware prefetchers follow well, so
  // inputs larger than L2 prefetch each row's vector one group ahead (at
  // least 16 KiB) into L2. Rows under 2 KiB stay one at a time: groups of
  // them are slower. Groups start at the chunk's first row, which the plan
  // fixes, so the bits do not depend on the thread count.
  std::optional<int64_t> bytes = inputBytes();
  const TargetInfo::CPUTuning &tuning = cpu().tuning;
  bool cacheResident = bytes && *bytes <= cpu().l2Bytes;
  bool longRows =
      inner.size * accumulator().bytes > tuning.reduceLongAccumulatorBytes ||
      inner.size * src.bytes >= tuning.reduceLongInputBytes;
  if (l.reduced && depth + 2 == k.plan.loops.size() && !inner.reduced &&
      inner.srcStride == 1 && inner.dstStride == 1 &&
      (cacheResident || longRows)) {
    const int64_t kRows = tuning.reduceRowGroup;
    int64_t ahead =
        cacheResident
            ? 0
            : std::max<int64_t>(kRows * std::abs(l.srcStride) * src.bytes,
                                tuning.reduceGroupPrefetchBytes);
    if (l.srcStride < 0)
      ahead = -ahead;
    Value groupsEnd = floorTo(r.lo, r.hi, kRows);
    e.forLoop(r.lo, groupsEnd, kRows, [&](Value i) {
      emitReduceColumns(inner, rangeOf(depth + 1),
                        e.add(s, e.mulc(i, l.srcStride)), a, kRows, l.srcStride,
                        ahead);
    });
    e.forLoop(groupsEnd, r.hi, 1, [&](Value i) {
      emitReduceColumns(inner, rangeOf(depth + 1),
                        e.add(s, e.mulc(i, l.srcStride)), a);
    });
    return;
  }
  e.forLoop(r.lo, r.hi, 1, [&](Value i) {
    emitReduceNest(depth + 1, e.add(s, e.mulc(i, l.srcStride)),
                   e.add(a, e.mulc(i, l.dstStride)));
  });
}

/// Innermost loop reduced: one run accumulates in registers (several
/// vector accumulators, summed per block of the run and then across
/// blocks: cascade summation), then joins the output's accumulator.
void KernelBuilder::emitReduceRun(const KernelLoop &l, Range r, Value s,
                                  Value a) {
  Elem acc = accumulator();
  ReduceOps ops(e, k.reduction, acc, src);
  int64_t vw = k.plan.vectorWidth;
  const int64_t kAccs = cpu().tuning.reduceAccumulators;
  const int64_t kBlock = cpu().tuning.reduceBlock;
  Value total;
  Value tail = r.lo;
  if (l.srcStride == 1 && vw > 1) {
    int64_t step = kAccs * vw;
    int64_t ahead = runPrefetchBytes();
    Type vacc = e.vecOf(acc.mem, vw), vsrc = e.vecOf(src.mem, vw);
    Value vecEnd = floorTo(r.lo, r.hi, step);
    Value sum =
        e.forLoopCarry(
             r.lo, vecEnd, kBlock, ValueRange{ops.identity(vacc)},
             [&](Value blk, ValueRange outer) -> SmallVector<Value> {
               Value blkEnd = e.minI(e.add(blk, e.c64(kBlock)), vecEnd);
               SmallVector<Value> init(kAccs, ops.identity(vacc));
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
                       next.push_back(
                           ops.combine(in[j], e.convert(v, src, acc)));
                     }
                     return next;
                   });
               Value blockSum = ops.combinePairwise(accs);
               return {ops.combine(outer[0], blockSum)};
             })
            .front();
    total = ops.horizontal(sum);
    tail = vecEnd;
  } else {
    total = ops.identity(acc.mem);
  }
  total = e.forLoopCarry(tail, r.hi, 1, ValueRange{total},
                         [&](Value i, ValueRange in) -> SmallVector<Value> {
                           Value v = e.load(src.mem, srcPtr, src.mem,
                                            e.add(s, e.mulc(i, l.srcStride)));
                           return {ops.combine(in[0], e.convert(v, src, acc))};
                         })
              .front();
  Value old = e.freezeLoad(acc.mem, accPtr, acc.mem, a);
  e.store(ops.combine(old, total), accPtr, acc.mem, a);
}

/// How far ahead of its loads a contiguous run that reduces 2-byte
/// elements (f16, bf16: half the bytes per vector that f32 reads)
/// prefetches into L2, one line at a time, in inputs larger than L2; 0
/// for others. The hardware prefetchers alone fall behind on such runs;
/// into L1, or 4 or 16 KiB ahead, is no better.
int64_t KernelBuilder::runPrefetchBytes() const {
  std::optional<int64_t> bytes = inputBytes();
  return src.bytes == 2 && bytes && *bytes > cpu().l2Bytes
             ? cpu().tuning.runPrefetchBytes
             : 0;
}

/// The bytes of the reduction's input, when their count is known.
std::optional<int64_t> KernelBuilder::inputBytes() const {
  Fallible<int64_t> inputs = numel(k.src.sizes);
  if (!inputs)
    return std::nullopt;
  return *inputs * src.bytes;
}

/// Innermost loop kept: a row of outputs accumulates `rows` rows of the
/// input, `rowStride` apart, combined pairwise before they join the
/// accumulator, which is then loaded, combined and stored once per group
/// instead of once per row. Vector loads prefetch `ahead` bytes further
/// (0: none).
void KernelBuilder::emitReduceColumns(const KernelLoop &l, Range r, Value s,
                                      Value a, int64_t rows, int64_t rowStride,
                                      int64_t ahead) {
  Elem acc = accumulator();
  ReduceOps ops(e, k.reduction, acc, src);
  int64_t vw = k.plan.vectorWidth;
  auto combineRows = [&](function_ref<Value(int64_t)> row) {
    SmallVector<Value> vals;
    for (int64_t j = 0; j < rows; ++j)
      vals.push_back(row(j));
    return ops.fold(std::move(vals));
  };
  Value tail = r.lo;
  if (l.srcStride == 1 && l.dstStride == 1 && vw > 1) {
    Value vecEnd = floorTo(r.lo, r.hi, vw);
    Type vacc = e.vecOf(acc.mem, vw), vsrc = e.vecOf(src.mem, vw);
    e.forLoop(r.lo, vecEnd, vw, [&](Value i) {
      Value v = combineRows([&](int64_t j) {
        Value at = e.add(s, e.add(i, e.c64(j * rowStride)));
        if (ahead)
          e.prefetch(srcPtr, src.mem, at, ahead, /*locality=*/2);
        return e.convert(e.load(vsrc, srcPtr, src.mem, at), src, acc);
      });
      Value old = e.freezeLoad(vacc, accPtr, acc.mem, e.add(a, i));
      e.store(ops.combine(old, v), accPtr, acc.mem, e.add(a, i));
    });
    tail = vecEnd;
  }
  e.forLoop(tail, r.hi, 1, [&](Value i) {
    Value v = combineRows([&](int64_t j) {
      return e.convert(
          e.load(src.mem, srcPtr, src.mem,
                 e.add(s, e.add(e.mulc(i, l.srcStride), e.c64(j * rowStride)))),
          src, acc);
    });
    Value at = e.add(a, e.mulc(i, l.dstStride));
    Value old = e.freezeLoad(acc.mem, accPtr, acc.mem, at);
    e.store(ops.combine(old, v), accPtr, acc.mem, at);
  });
}

/// argmax/argmin walk the input in logical order so that ties and NaNs
/// resolve to the first index, as PyTorch does. Serial and scalar.
void KernelBuilder::emitArgReduction() {
  SmallVector<int64_t> kept, reduced;
  for (int64_t d = 0; d < k.src.rank(); ++d)
    (llvm::is_contained(k.reducedDims, d) ? reduced : kept).push_back(d);
  Type i64 = e.i64;
  // State in stack slots: best value, its index, the running index and
  // the output position (mem2reg turns them into registers).
  Value one = e.c64(1);
  Value bestSlot =
      LLVM::AllocaOp::create(e.b, e.ptr, accumulator().mem, one, 8);
  Value idxSlot = LLVM::AllocaOp::create(e.b, e.ptr, i64, one, 8);
  Value runSlot = LLVM::AllocaOp::create(e.b, e.ptr, i64, one, 8);
  Value outSlot = LLVM::AllocaOp::create(e.b, e.ptr, i64, one, 8);
  e.store(e.c64(0), outSlot, i64, e.c64(0));
  std::function<void(size_t, Value)> keptLoop = [&](size_t depth, Value s) {
    if (depth == kept.size()) {
      e.store(e.c64(kArgNoIndex), idxSlot, i64, e.c64(0));
      e.store(e.c64(0), runSlot, i64, e.c64(0));
      reducedLoop(reduced, 0, s, bestSlot, idxSlot, runSlot);
      Value o = e.load(i64, outSlot, i64, e.c64(0));
      Value idx = e.load(i64, idxSlot, i64, e.c64(0));
      e.store(idx, dstPtr, i64, o);
      e.store(e.add(o, e.c64(1)), outSlot, i64, e.c64(0));
      return;
    }
    int64_t dim = kept[depth];
    e.forLoop(e.c64(0), e.c64(k.src.sizes[dim]), 1, [&](Value i) {
      keptLoop(depth + 1, e.add(s, e.mulc(i, k.src.strides[dim])));
    });
  };
  keptLoop(0, e.c64(0));
}

void KernelBuilder::reducedLoop(ArrayRef<int64_t> dims, size_t depth, Value s,
                                Value bestSlot, Value idxSlot, Value runSlot) {
  // The accumulator type: bf16 compares in f32 (see accumulator()).
  Elem acc = accumulator();
  ReductionRules rules = reductionRules(k.reduction, acc, src);
  Type i64 = e.i64, vt = acc.mem;
  if (depth == dims.size()) {
    Value v = e.load(src.mem, srcPtr, src.mem, s);
    if (vt != src.mem)
      v = arith::ExtFOp::create(e.b, vt, v);
    Value run = e.load(i64, runSlot, i64, e.c64(0));
    Value idx = e.load(i64, idxSlot, i64, e.c64(0));
    Value best = e.load(vt, bestSlot, vt, e.c64(0));
    Value first =
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::slt, idx, e.c64(0));
    bool isMax = rules.keepsLarger;
    // Strict compares: ties keep the first index.
    Value better;
    if (acc.isFloat) {
      better = arith::CmpFOp::create(
          e.b, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, v,
          best);
      if (rules.nanWins) {
        Value vNan =
            arith::CmpFOp::create(e.b, arith::CmpFPredicate::UNO, v, v);
        Value bestNum =
            arith::CmpFOp::create(e.b, arith::CmpFPredicate::ORD, best, best);
        better = arith::OrIOp::create(
            e.b, better, arith::AndIOp::create(e.b, vNan, bestNum));
      }
    } else {
      arith::CmpIPredicate pred =
          src.isUnsigned
              ? (isMax ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ult)
              : (isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt);
      better = arith::CmpIOp::create(e.b, pred, v, best);
    }
    Value take = arith::OrIOp::create(e.b, first, better);
    e.store(arith::SelectOp::create(e.b, take, v, best), bestSlot, vt,
            e.c64(0));
    e.store(arith::SelectOp::create(e.b, take, run, idx), idxSlot, i64,
            e.c64(0));
    e.store(e.add(run, e.c64(1)), runSlot, i64, e.c64(0));
    return;
  }
  int64_t dim = dims[depth];
  e.forLoop(e.c64(0), e.c64(k.src.sizes[dim]), 1, [&](Value i) {
    reducedLoop(dims, depth + 1, e.add(s, e.mulc(i, k.src.strides[dim])),
                bestSlot, idxSlot, runSlot);
  });
}
