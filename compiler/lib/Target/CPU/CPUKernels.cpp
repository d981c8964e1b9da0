//===- CPUKernels.cpp - Kernel plans as scf/vector/LLVM-dialect IR
//---------===//
//
// Every kernel becomes an internal "chunk" function
//   void chunk(ptr ctx, i64 begin, i64 end)
// that runs iterations [begin, end) of the plan's parallel loop (all of it
// when the plan has none); ctx holds the source view, destination view and
// accumulator pointers. The raw entry point binds buffers, hands each chunk
// function to lrt_parallel_for and combines reduction partials in a fixed
// order, so results never depend on the thread count. The DLPack entry point
// validates its tensors with lrt_bind_tensors and calls the raw one.
//
// Addresses are plain pointers with i64 element indices (GEP), so loops need
// no memref descriptors; vector values come from vector loads along unit
// strides and are transposed in registers with shuffles.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Target/CPU/CPUBackend.h"

#include "layout/Dialect/Layout/IR/LayoutTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace mlir::layout;

namespace {

/// How an element type lives in memory and converts.
struct Elem {
  Type lang;
  /// Memory type: i1 is stored as a byte, ui8 as i8.
  Type mem;
  bool isFloat = false;
  bool isBool = false;
  bool isUnsigned = false;
  int64_t bytes = 1;
};

Elem elemOf(Type t) {
  Elem e;
  e.lang = t;
  e.bytes = elementBytes(t);
  MLIRContext *ctx = t.getContext();
  if (auto i = dyn_cast<IntegerType>(t)) {
    e.isBool = i.getWidth() == 1;
    e.isUnsigned = i.isUnsigned() || e.isBool;
    e.mem = IntegerType::get(ctx, e.isBool ? 8 : i.getWidth());
  } else {
    e.isFloat = true;
    e.mem = t;
  }
  return e;
}

bool isHalfLike(Type t) { return t.isF16() || t.isBF16(); }

/// Builds IR into one function at a time.
class Emitter {
public:
  Emitter(ModuleOp module)
      : module(module), b(module.getLoc(), module.getContext()) {
    ctx = module.getContext();
    i64 = b.getI64Type();
    ptr = LLVM::LLVMPointerType::get(ctx);
  }

  /// The target's vector registers (TargetInfo::vectorRegisters).
  int64_t vectorRegisters = 16;

  Value c64(int64_t v) { return arith::ConstantIntOp::create(b, v, 64); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value mulc(Value x, int64_t k) {
    if (k == 1)
      return x;
    return mul(x, c64(k));
  }
  Value minI(Value x, Value y) { return arith::MinSIOp::create(b, x, y); }

  Value gep(Value base, Type elem, Value index) {
    return LLVM::GEPOp::create(b, ptr, elem, base, ValueRange{index});
  }
  /// Accesses are aligned to their element, the most a strided view
  /// guarantees.
  static unsigned alignOf(Type elem) {
    if (isa<LLVM::LLVMPointerType>(elem))
      return 8;
    return std::max(1u, elem.getIntOrFloatBitWidth() / 8);
  }
  Value load(Type type, Value base, Type elem, Value index) {
    return LLVM::LoadOp::create(b, type, gep(base, elem, index), alignOf(elem));
  }
  /// Hints the line `ahead` bytes past element `index` into the cache
  /// level `locality` names (LLVM's: 3 is L1, 2 and 1 the outer levels).
  void prefetch(Value base, Type elem, Value index, int64_t ahead,
                int locality) {
    Value at = LLVM::GEPOp::create(
        b, ptr, b.getI8Type(), gep(base, elem, index), ValueRange{c64(ahead)});
    LLVM::Prefetch::create(b, at, /*rw=*/0, locality, /*cache=*/1);
  }
  /// A load whose value LLVM's X86 backend cannot see through: it folds
  /// store(select(m, x, load p), p) (amax/amin updating an accumulator) into
  /// a masked store, and vmaskmovps to memory is microcoded on AMD Zen.
  /// Scalar loops need it too: LLVM's loop vectorizer turns them into the
  /// same pattern.
  Value freezeLoad(Type type, Value base, Type elem, Value index) {
    return LLVM::FreezeOp::create(b, load(type, base, elem, index));
  }
  void store(Value value, Value base, Type elem, Value index,
             bool nontemporal = false) {
    unsigned align = alignOf(elem);
    // Non-temporal vectors are aligned to their size up to a line: the
    // callers check lines (a pair of lines may start at any line).
    if (nontemporal)
      if (auto v = dyn_cast<VectorType>(value.getType()))
        align = std::min<unsigned>(v.getNumElements() * align, kCacheLineBytes);
    LLVM::StoreOp::create(b, value, gep(base, elem, index), std::max(1u, align),
                          /*isVolatile=*/false, nontemporal);
  }

  /// vector.shuffle of vectors of any lengths. MLIR lowers a shuffle of two
  /// different vector types element by element (an extract and an insert
  /// per lane, which LLVM's code generator is slow to legalize), so the
  /// shorter operand is first widened to the longer's length by a shuffle of
  /// itself.
  Value shuffle(Value x, Value y, ArrayRef<int64_t> mask) {
    int64_t nx = cast<VectorType>(x.getType()).getNumElements(),
            ny = cast<VectorType>(y.getType()).getNumElements();
    if (nx == ny)
      return vector::ShuffleOp::create(b, x, y, mask);
    int64_t n = std::max(nx, ny);
    auto widen = [&](Value v, int64_t length) -> Value {
      if (length == n)
        return v;
      SmallVector<int64_t> lanes;
      for (int64_t i = 0; i < n; ++i)
        lanes.push_back(i < length ? i : 0);
      return vector::ShuffleOp::create(b, v, v, lanes);
    };
    SmallVector<int64_t> remapped;
    for (int64_t i : mask)
      remapped.push_back(i < nx ? i : n + (i - nx));
    return vector::ShuffleOp::create(b, widen(x, nx), widen(y, ny), remapped);
  }

  Type vecOf(Type elem, int64_t lanes) {
    return lanes == 1 ? elem : VectorType::get({lanes}, elem);
  }

  /// Type `t` with the element type replaced (vector shape kept).
  Type like(Type t, Type elem) {
    if (auto v = dyn_cast<VectorType>(t))
      return VectorType::get(v.getShape(), elem);
    return elem;
  }

  /// Converts a value of `from`'s memory type to `to`'s, with PyTorch's
  /// rules: via f32 for f16/bf16, truncation toward zero for float -> int
  /// (through a 32- or 64-bit integer, as a C cast on x86 does), x != 0 for
  /// bool.
  Value convert(Value v, const Elem &from, const Elem &to) {
    if (from.lang == to.lang)
      return v;
    Type f32 = b.getF32Type();
    Type t = v.getType();
    if (to.isBool) {
      Value zero = arith::ConstantOp::create(
          b, t,
          from.isFloat ? cast<TypedAttr>(b.getZeroAttr(t))
                       : cast<TypedAttr>(b.getZeroAttr(t)));
      Value ne =
          from.isFloat
              ? arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, v, zero)
                    .getResult()
              : arith::CmpIOp::create(b, arith::CmpIPredicate::ne, v, zero)
                    .getResult();
      return arith::ExtUIOp::create(b, like(t, to.mem), ne);
    }
    if (from.isFloat && to.isFloat) {
      Type fromT = from.mem, toT = to.mem;
      if ((isHalfLike(fromT) || isHalfLike(toT)) && !fromT.isF32() &&
          !toT.isF32()) {
        Elem mid = elemOf(f32);
        return convert(convert(v, from, mid), mid, to);
      }
      if (fromT.getIntOrFloatBitWidth() < toT.getIntOrFloatBitWidth())
        return arith::ExtFOp::create(b, like(t, toT), v);
      return arith::TruncFOp::create(b, like(t, toT), v);
    }
    if (!from.isFloat && to.isFloat) {
      Type target = isHalfLike(to.mem) ? f32 : to.mem;
      Value f =
          from.isUnsigned
              ? arith::UIToFPOp::create(b, like(t, target), v).getResult()
              : arith::SIToFPOp::create(b, like(t, target), v).getResult();
      return isHalfLike(to.mem) ? convert(f, elemOf(f32), to) : f;
    }
    if (from.isFloat && !to.isFloat) {
      if (isHalfLike(from.mem))
        return convert(convert(v, from, elemOf(f32)), elemOf(f32), to);
      unsigned width = to.mem.getIntOrFloatBitWidth();
      Type wide = b.getIntegerType(width < 32 ? 32 : width);
      Value i = arith::FPToSIOp::create(b, like(t, wide), v);
      if (width < 32)
        i = arith::TruncIOp::create(b, like(t, to.mem), i);
      return i;
    }
    unsigned fw = from.mem.getIntOrFloatBitWidth(),
             tw = to.mem.getIntOrFloatBitWidth();
    if (fw == tw)
      return v;
    if (fw > tw)
      return arith::TruncIOp::create(b, like(t, to.mem), v);
    if (from.isUnsigned)
      return arith::ExtUIOp::create(b, like(t, to.mem), v);
    return arith::ExtSIOp::create(b, like(t, to.mem), v);
  }

  /// for (i = lo; i < hi; i += step) body(i)
  void forLoop(Value lo, Value hi, int64_t step,
               function_ref<void(Value)> body) {
    scf::ForOp::create(b, lo, hi, c64(step), ValueRange{},
                       [&](OpBuilder &nested, Location, Value iv, ValueRange) {
                         OpBuilder::InsertionGuard guard(b);
                         b.setInsertionPoint(nested.getInsertionBlock(),
                                             nested.getInsertionPoint());
                         body(iv);
                         scf::YieldOp::create(b);
                       });
  }

  /// A loop carrying values: body(i, carried) returns the next values.
  ValueRange
  forLoopCarry(Value lo, Value hi, int64_t step, ValueRange init,
               function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto loop = scf::ForOp::create(
        b, lo, hi, c64(step), init,
        [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          SmallVector<Value> next = body(iv, args);
          scf::YieldOp::create(b, next);
        });
    return loop.getResults();
  }

  void ifElse(Value cond, function_ref<void()> thenBody,
              function_ref<void()> elseBody) {
    auto build = [&](function_ref<void()> body) {
      return [&, body](OpBuilder &nested, Location) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        body();
        scf::YieldOp::create(b);
      };
    };
    scf::IfOp::create(b, cond, build(thenBody), build(elseBody));
  }

  LLVM::LLVMFuncOp declare(StringRef name, Type result, ArrayRef<Type> params) {
    if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return f;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    return LLVM::LLVMFuncOp::create(
        b, name, LLVM::LLVMFunctionType::get(result, params));
  }

  Value call(StringRef name, Type result, ValueRange args) {
    SmallVector<Type> types(args.getTypes());
    LLVM::LLVMFuncOp f = declare(name, result, types);
    auto call = LLVM::CallOp::create(b, f, args);
    return call.getNumResults() ? call.getResult() : Value();
  }

  /// Starts a new function and positions the builder in its entry block.
  LLVM::LLVMFuncOp startFunction(StringRef name, Type result,
                                 ArrayRef<Type> params, bool internal) {
    b.setInsertionPointToEnd(module.getBody());
    auto f = LLVM::LLVMFuncOp::create(
        b, name, LLVM::LLVMFunctionType::get(result, params),
        internal ? LLVM::Linkage::Internal : LLVM::Linkage::External);
    Block *entry = f.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    return f;
  }

  Value nullPtr() { return LLVM::ZeroOp::create(b, ptr); }
  Value isNonNull(Value p) {
    return LLVM::ICmpOp::create(b, LLVM::ICmpPredicate::ne, p, nullPtr());
  }

  ModuleOp module;
  ImplicitLocOpBuilder b;
  MLIRContext *ctx;
  Type i64, ptr;
};

//===----------------------------------------------------------------------===//
// Reductions: combining and identities
//===----------------------------------------------------------------------===//

struct ReduceOps {
  Emitter &e;
  ReductionKind kind;
  Elem acc;

  Value identity(Type t) {
    Type el = getElementTypeOrSelf(t);
    TypedAttr attr;
    if (acc.isFloat) {
      auto ft = cast<FloatType>(el);
      const llvm::fltSemantics &sem = ft.getFloatSemantics();
      llvm::APFloat v = llvm::APFloat::getZero(sem);
      if (kind == ReductionKind::Prod)
        v = llvm::APFloat::getOne(sem);
      else if (kind == ReductionKind::Amax)
        v = llvm::APFloat::getInf(sem, /*Negative=*/true);
      else if (kind == ReductionKind::Amin)
        v = llvm::APFloat::getInf(sem, /*Negative=*/false);
      attr = FloatAttr::get(el, v);
    } else {
      unsigned w = el.getIntOrFloatBitWidth();
      llvm::APInt v(w, 0);
      if (kind == ReductionKind::Prod)
        v = llvm::APInt(w, 1);
      else if (kind == ReductionKind::Amax)
        v = acc.isUnsigned ? llvm::APInt::getMinValue(w)
                           : llvm::APInt::getSignedMinValue(w);
      else if (kind == ReductionKind::Amin)
        v = acc.isUnsigned ? llvm::APInt::getMaxValue(w)
                           : llvm::APInt::getSignedMaxValue(w);
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
    bool hoistNaN =
        acc.isFloat && vals.size() > 1 &&
        (kind == ReductionKind::Amax || kind == ReductionKind::Amin);
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
      if (acc.isFloat)
        return propagatingNaN(x, y, arith::CmpFPredicate::OGT);
      return acc.isUnsigned ? arith::MaxUIOp::create(b, x, y).getResult()
                            : arith::MaxSIOp::create(b, x, y).getResult();
    case ReductionKind::Amin:
      if (acc.isFloat)
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
                    kind == ReductionKind::Amax ? arith::CmpFPredicate::OGT
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

//===----------------------------------------------------------------------===//
// Kernel builder
//===----------------------------------------------------------------------===//

/// Loop ranges of one chunk: every loop runs fully except the parallel one.
struct Range {
  Value lo, hi;
};

/// Steps up to this are loaded as contiguous vectors and deinterleaved.
constexpr int64_t kMaxDeinterleave = 4;

class KernelBuilder {
public:
  KernelBuilder(Emitter &e, const Kernel &k, std::string name)
      : e(e), k(k), name(std::move(name)), src(elemOf(k.srcType)),
        dst(elemOf(k.dstType)) {
    // A copy without conversion moves bits. x86 has no f16/bf16 vector
    // arithmetic, and LLVM legalizes their shuffles lane by lane (bf16 most
    // of all); as i16 the same moves are plain integer shuffles.
    if (k.kind == KernelKind::Copy && k.srcType == k.dstType &&
        isHalfLike(k.srcType)) {
      src.mem = dst.mem = IntegerType::get(e.ctx, 16);
      src.isFloat = dst.isFloat = false;
    }
  }

  /// The loop lrt_parallel_for splits, or -1.
  int64_t parallelLoop() const {
    if (isArgReduction())
      return -1;
    return k.plan.parallelLoop ? *k.plan.parallelLoop : -1;
  }

  /// The plan splits a reduced outermost loop: each chunk accumulates a full
  /// set of outputs over its rows, and the partial sets combine in chunk
  /// order.
  bool partials() const {
    return k.kind == KernelKind::Reduce && !isArgReduction() &&
           !k.plan.loops.empty() && k.plan.loops.front().reduced &&
           k.plan.parallelLoop == 0;
  }

  /// The number of iterations lrt_parallel_for splits and its grain.
  std::pair<int64_t, int64_t> split() const {
    int64_t loop = parallelLoop();
    if (loop < 0)
      return {1, 1};
    int64_t grain = chunkGrain(k.plan);
    // Chunks of a transpose split along its destination's stride-1 loop
    // start on a line tile: b-blocks stay whole and their streaming stores
    // aligned.
    assert((k.plan.strategy != KernelStrategy::Transpose ||
            loop != k.plan.tiledLoops->second ||
            grain % transposeTiling(k.plan).streamWidth == 0) &&
           "chunk boundaries cut a line tile");
    return {k.plan.loops[loop].size, grain};
  }

  bool isArgReduction() const {
    return k.kind == KernelKind::Reduce &&
           (k.reduction == ReductionKind::Argmax ||
            k.reduction == ReductionKind::Argmin);
  }

  int64_t outputCount() const {
    Fallible<int64_t> outputs = numel(k.dst.sizes);
    return *outputs;
  }
  /// Sets of outputs the accumulator array holds: one per chunk when the
  /// reduced outer loop is split, else one.
  int64_t accumulatorSets() const {
    if (parallelLoop() == 0 && k.plan.loops.front().reduced) {
      auto [n, grain] = split();
      return std::max<int64_t>(1, llvm::divideCeil(n, grain));
    }
    return 1;
  }
  /// Elements of the accumulator array (reductions other than arg*).
  int64_t accumulatorCount() const {
    if (k.kind != KernelKind::Reduce || isArgReduction())
      return 0;
    return accumulatorSets() * outputCount();
  }
  Elem accumulator() const {
    Builder b(e.ctx);
    StringRef a = k.plan.accumulator ? *k.plan.accumulator : StringRef();
    if (a == "f32")
      return elemOf(b.getF32Type());
    if (a == "f64")
      return elemOf(b.getF64Type());
    if (a == "i64")
      return elemOf(b.getI64Type());
    // amax/amin/argmax/argmin keep the input type, but x86 has no bf16
    // arithmetic and LLVM rounds its promoted results back through a libgcc
    // helper (__truncsfbf2) that GCC 12 lacks: compare in f32 instead, exact
    // for values that came from bf16.
    if (src.lang.isBF16())
      return elemOf(b.getF32Type());
    return src;
  }

  /// Emits the chunk function; returns its name.
  void emitChunk() {
    LLVM::LLVMFuncOp f =
        e.startFunction(name, LLVM::LLVMVoidType::get(e.ctx),
                        {e.ptr, e.i64, e.i64}, /*internal=*/true);
    Block *entry = e.b.getInsertionBlock();
    Value ctxPtr = entry->getArgument(0);
    begin = entry->getArgument(1);
    end = entry->getArgument(2);
    srcPtr = e.load(e.ptr, ctxPtr, e.ptr, e.c64(0));
    dstPtr = e.load(e.ptr, ctxPtr, e.ptr, e.c64(1));
    accPtr = e.load(e.ptr, ctxPtr, e.ptr, e.c64(2));
    if (k.kind == KernelKind::Copy) {
      if (k.plan.strategy == KernelStrategy::Transpose)
        emitTranspose();
      else
        emitCopyNest(0, e.c64(0), e.c64(0));
    } else if (isArgReduction()) {
      emitArgReduction();
    } else {
      Value accBase = e.c64(0);
      if (accumulatorSets() > 1)
        accBase =
            e.mulc(arith::DivSIOp::create(e.b, begin, e.c64(split().second)),
                   outputCount());
      emitReduceNest(0, e.c64(0), accBase);
    }
    // Streaming stores are weakly ordered: sfence makes them visible before
    // the chunk reports completion (x86; the only target the backend
    // streams on).
    if (usesStreaming)
      LLVM::CallIntrinsicOp::create(
          e.b, e.b.getStringAttr("llvm.x86.sse.sfence"), ValueRange{});
    LLVM::ReturnOp::create(e.b, ValueRange{});
    // Only register tiles need AVX-512; with it, LLVM turns the 32-byte
    // vectors of the other kernels' compares into mask-register compares and
    // masked moves, which are slower.
    if (e.vectorRegisters >= 32 && !usesWideRegisters)
      f->setAttr(
          "passthrough",
          e.b.getArrayAttr({e.b.getArrayAttr(
              {e.b.getStringAttr(kVectorsAttr), e.b.getStringAttr("avx2")})}));
  }

  /// Serial code in the raw entry point: accumulators to their identity.
  void emitInit(Value acc) {
    Elem a = accumulator();
    ReduceOps ops{e, k.reduction, a};
    Value id = ops.identity(a.mem);
    e.forLoop(e.c64(0), e.c64(accumulatorCount()), 1,
              [&](Value i) { e.store(id, acc, a.mem, i); });
  }

  /// Serial code in the raw entry point: partials to results.
  void emitFinalize(Value acc, Value out) {
    Elem a = accumulator();
    ReduceOps ops{e, k.reduction, a};
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

private:
  Range rangeOf(size_t loop) {
    if (parallelLoop() == static_cast<int64_t>(loop))
      return {begin, end};
    return {e.c64(0), e.c64(k.plan.loops[loop].size)};
  }

  //===--------------------------------------------------------------------===//
  // Copies: memcpy-like, gather, broadcast
  //===--------------------------------------------------------------------===//

  void emitCopyNest(size_t depth, Value s, Value d) {
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
  Value previousRunSource(Value s) {
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

  /// One run of a copy whose streaming stores join runs (joinsRuns): the
  /// line the run starts in takes the previous run's tail and this run's
  /// head, through masked loads, then the run's whole lines; its last
  /// partial line is the next run's, but for the destination's last run.
  /// The destination's first and last elements outside whole lines store
  /// normally. For runs of a few lines, faster than normal stores.
  void emitJoinedRun(const KernelLoop &l, Value s, Value d) {
    usesStreaming = true;
    int64_t vw = k.plan.vectorWidth, line = lineElements(dst.bytes);
    Value size = e.c64(l.size);
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
              first, [&] { scalarCopy(l, e.c64(0), head, s, d); },
              [&] {
                // The previous run ends `tail` elements before the line's
                // end as this one begins `tail` elements after its start.
                Value prevEnd = e.add(previousRunSource(s), size);
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
        e.mulc(arith::DivSIOp::create(
                   e.b, arith::SubIOp::create(e.b, size, head), e.c64(line)),
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
    Value last =
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::eq, e.add(d, size),
                              e.c64(*numel(k.dst.sizes)));
    e.ifElse(
        last, [&] { scalarCopy(l, end, size, s, d); }, [] {});
  }

  void scalarCopy(const KernelLoop &l, Value lo, Value hi, Value s, Value d) {
    e.forLoop(lo, hi, 1, [&](Value i) {
      Value v =
          e.load(src.mem, srcPtr, src.mem, e.add(s, e.mulc(i, l.srcStride)));
      e.store(e.convert(v, src, dst), dstPtr, dst.mem,
              e.add(d, e.mulc(i, l.dstStride)));
    });
  }

  /// VW source elements starting at iteration i of a loop with stride
  /// `stride`, as a vector in lane order.
  Value loadLanes(Value s, Value i, int64_t stride, int64_t vw) {
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
    if (stride >= 2 && stride <= kMaxDeinterleave) {
      // Small steps (x[:, ::2]): `stride` contiguous vectors, then every
      // stride-th lane. Reads stride - 1 elements past the last lane; the
      // caller keeps those inside the run.
      SmallVector<Value> parts;
      for (int64_t j = 0; j < stride; ++j)
        parts.push_back(
            e.load(vt, srcPtr, src.mem, e.add(first, e.c64(j * vw))));
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

  void emitInnerCopy(const KernelLoop &l, Range r, Value s, Value d) {
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
        l.size * dst.bytes >= 4096) {
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
    if (l.srcStride >= 2 && l.srcStride <= kMaxDeinterleave)
      count = arith::SubIOp::create(e.b, count, e.c64(1));
    Value vecEnd =
        e.add(lo, e.mulc(arith::DivSIOp::create(e.b, count, e.c64(vw)), vw));
    Value splat;
    if (l.srcStride == 0) {
      Value v = e.load(src.mem, srcPtr, src.mem, s);
      splat = vector::BroadcastOp::create(e.b, e.vecOf(src.mem, vw), v);
    }
    e.forLoop(lo, vecEnd, vw, [&](Value i) {
      Value v = splat ? splat : loadLanes(s, i, l.srcStride, vw);
      e.store(e.convert(v, src, dst), dstPtr, dst.mem, e.add(d, i), streaming);
    });
    scalarCopy(l, vecEnd, r.hi, s, d);
  }

  //===--------------------------------------------------------------------===//
  // Transposes
  //===--------------------------------------------------------------------===//

  /// Transposes n rows of n lanes (n a power of two) with log2(n) rounds of
  /// two-input shuffles: round s swaps bit s of the row and lane index.
  /// log2(n) rounds of interleaving row i with row i + n/2 (the perfect
  /// shuffle) transpose n rows of n elements; each interleave is one unpack
  /// instruction (punpcklwd / unpcklps, ...) when a square fits a 128-bit
  /// lane. Every row may hold `lanes` such squares side by side, one per
  /// lane, transposed independently (x86 unpacks work per lane).
  SmallVector<Value> interleaveTranspose(SmallVector<Value> rows,
                                         int64_t lanes = 1) {
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
  SmallVector<Value> interleaveRound(ArrayRef<Value> rows,
                                     ArrayRef<int64_t> low,
                                     ArrayRef<int64_t> high) {
    int64_t m = rows.size();
    SmallVector<Value> next(m);
    for (int64_t i = 0; i < m / 2; ++i) {
      next[2 * i] =
          vector::ShuffleOp::create(e.b, rows[i], rows[i + m / 2], low);
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
  SmallVector<Value> pairedTranspose(ArrayRef<Value> rows) {
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

  SmallVector<Value> transposeSquare(SmallVector<Value> rows) {
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
        next[r | s] =
            vector::ShuffleOp::create(e.b, rows[r], rows[r | s], high);
      }
      rows = std::move(next);
    }
    return rows;
  }

  void emitTranspose() {
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
          e.c64(t.edge * skewBlocks(t.edge) * skewBufferRow()),
          kCacheLineBytes);
    emitTransposeOuter(t.outside, 0, e.c64(0), e.c64(0),
                       [&](Value s, Value d) { emitTile(s, d, t); });
  }

  /// Squares side by side along a in a skewed window, so that it reads a
  /// line's worth of each source row at once (as lineBlocks): a single
  /// square reads each line of its rows in several visits, and a window's
  /// rows, in few L1 sets, evict the lines between visits.
  int64_t skewBlocks(int64_t n) const { return lineBlocks(n); }

  /// Elements per row of the skewed tile's buffer: kSkewLines lines and
  /// the skew.
  int64_t skewBufferRow() const {
    return (kSkewLines + 1) * lineElements(dst.bytes);
  }

  /// Elements from destination element `index` to the next line boundary.
  Value lineShift(Value index) {
    Value addr =
        LLVM::PtrToIntOp::create(e.b, e.i64, e.gep(dstPtr, dst.mem, index));
    Value toBoundary =
        arith::AndIOp::create(e.b, arith::SubIOp::create(e.b, e.c64(0), addr),
                              e.c64(kCacheLineBytes - 1));
    return arith::DivUIOp::create(e.b, toBoundary, e.c64(dst.bytes));
  }

  /// Skewed tiles for destination rows that are not a whole number of
  /// lines apart: each row of the tile stores whole aligned lines from its
  /// own first line boundary on, from a buffer that holds the tile's rows
  /// transposed with a line to spare; normal stores fill the part of each
  /// row before its first line and after its last.
  void emitSkewed(Value s, Value d, const TransposeTiling &t,
                  const KernelLoop &la, const KernelLoop &lb, Range ra,
                  Range rb) {
    int64_t n = t.edge, line = lineElements(dst.bytes),
            rowLen = skewBufferRow();
    ArrayRef<int64_t> inside = t.inside;
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
            rows.push_back(
                sourceLoad(vt,
                           e.add(e.add(s, e.add(ia, e.c64(ab * n))),
                                 e.mulc(e.add(first, e.c64(j)), lb.srcStride)),
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
      for (int64_t i = 0; i < n * blocks; ++i) {
        Value row = e.add(d, e.mulc(e.add(ia, e.c64(i)), la.dstStride));
        Value shift = lineShift(e.add(row, rb.lo));
        Value rowBuf = e.c64(i * rowLen);
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
      }
    };
    int64_t blocks = skewBlocks(n);
    Value aWide = floorTo(ra.lo, ra.hi, n * blocks);
    e.forLoop(e.c64(0), lines, kSkewLines, [&](Value l0) {
      Value m =
          e.minI(arith::SubIOp::create(e.b, lines, l0), e.c64(kSkewLines));
      Value b0 = e.add(rb.lo, e.mulc(l0, line));
      emitTransposeOuter(inside, 0, s, d, [&](Value s, Value d) {
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
    emitTransposeOuter(inside, 0, s, d, [&](Value s, Value d) {
      edgeRect(s, d, t, la, lb, ra.lo, aFull, windowsEnd, rb.hi);
      edgeRect(s, d, t, la, lb, aFull, ra.hi, rb.lo, rb.hi);
    });
  }

  /// Copies `count` (at most `line`) elements from the skew buffer to the
  /// destination with normal stores, as vectors of descending powers of
  /// two: the piece of p elements starts after the larger pieces, at count
  /// rounded down to a multiple of 2p.
  void storePieces(Value from, Value to, Value count, int64_t line) {
    for (int64_t p = line; p >= 1; p /= 2) {
      Value has = arith::CmpIOp::create(
          e.b, arith::CmpIPredicate::ne,
          arith::AndIOp::create(e.b, count, e.c64(p)), e.c64(0));
      e.ifElse(
          has,
          [&] {
            Value at = arith::AndIOp::create(e.b, count, e.c64(~(2 * p - 1)));
            Value v = e.load(e.vecOf(dst.mem, p), skewBuffer, dst.mem,
                             e.add(from, at));
            e.store(v, dstPtr, dst.mem, e.add(to, at));
          },
          [] {});
    }
  }

  void emitTransposeOuter(ArrayRef<int64_t> loops, size_t depth, Value s,
                          Value d, function_ref<void(Value, Value)> body) {
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
  void scalarRect(Value s, Value d, const KernelLoop &la, const KernelLoop &lb,
                  Value a0, Value a1, Value b0, Value b1) {
    e.forLoop(a0, a1, 1, [&](Value ia) {
      Value sa = e.add(s, e.mulc(ia, la.srcStride));
      Value da = e.add(d, e.mulc(ia, la.dstStride));
      KernelLoop inner{lb.size, lb.srcStride, lb.dstStride};
      scalarCopy(inner, b0, b1, sa, da);
    });
  }

  Value floorTo(Value lo, Value hi, int64_t n) {
    Value count = arith::SubIOp::create(e.b, hi, lo);
    return e.add(lo, e.mulc(arith::DivSIOp::create(e.b, count, e.c64(n)), n));
  }

  void emitTile(Value s, Value d, const TransposeTiling &t) {
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
    // The rows along a that a micro tile takes: a line's worth of each
    // source row (as TransposeTiling's rowsFirst and stageRows count them).
    int64_t wide = n * lineBlocks(n);
    // The tiles of `width` columns from b0 down a; `narrow`: ra is known to
    // be shorter than `wide`, so no wide tile would run.
    auto column = [&](Value s, Value d, Value b0, int64_t width, bool streaming,
                      Range ra, bool narrow = false) {
      Value aWide = ra.lo;
      if (!narrow) {
        aWide = floorTo(ra.lo, ra.hi, wide);
        e.forLoop(ra.lo, aWide, wide, [&](Value ia) {
          micro(s, d, la, lb, ia, b0, n, width / n, lineBlocks(n), streaming);
        });
      }
      Value aFull = floorTo(aWide, ra.hi, n);
      e.forLoop(aWide, aFull, n, [&](Value ia) {
        micro(s, d, la, lb, ia, b0, n, width / n, 1, streaming);
      });
      if (!t.maskedEdges)
        return scalarRect(s, d, la, lb, aFull, ra.hi, b0,
                          e.add(b0, e.c64(width)));
      Value rows = arith::SubIOp::create(e.b, ra.hi, aFull);
      ifPositive(rows, [&] {
        for (int64_t blk = 0; blk < width / n; ++blk)
          maskedSquare(s, d, la, lb, aFull, e.add(b0, e.c64(blk * n)), n, rows,
                       e.c64(n));
      });
    };
    // Columns [bLo, rb.hi), fewer than n, down a: whole squares along a but
    // the last (faster than edgeRect's loop, which takes the count of rows
    // of every square from a minimum).
    auto tailColumns = [&](Value s, Value d, Value bLo, Range ra) {
      if (!t.maskedEdges)
        return scalarRect(s, d, la, lb, ra.lo, ra.hi, bLo, rb.hi);
      Value cols = arith::SubIOp::create(e.b, rb.hi, bLo);
      ifPositive(cols, [&] {
        Value aFull = floorTo(ra.lo, ra.hi, n);
        e.forLoop(ra.lo, aFull, n, [&](Value ia) {
          maskedSquare(s, d, la, lb, ia, bLo, n, e.c64(n), cols);
        });
        Value rows = arith::SubIOp::create(e.b, ra.hi, aFull);
        ifPositive(rows, [&] {
          maskedSquare(s, d, la, lb, aFull, bLo, n, rows, cols);
        });
      });
    };
    // Tiles of `width` columns over [bLo, bHi), the inside loops within
    // each b-block, so that a streaming tile's rows continue as long
    // streams.
    auto blocks = [&](Value bLo, Value bHi, int64_t width, bool streaming) {
      e.forLoop(bLo, bHi, width, [&](Value b0) {
        emitTransposeOuter(inside, 0, s, d, [&](Value s, Value d) {
          column(s, d, b0, width, streaming, ra);
        });
      });
    };
    // Columns past the last full tile: single squares, then a masked square
    // (or scalars), so that fewer than n columns, not w, are left to the
    // edge.
    auto squaresEnd = [&] { return w > n ? floorTo(bFull, rb.hi, n) : bFull; };
    // Streaming tiles (two lines of each row where b has them, then one),
    // then the columns past them storing normally.
    auto streamed = [&](bool streaming) {
      if (t.streamWidth > w) {
        Value bPairs = floorTo(rb.lo, rb.hi, t.streamWidth);
        blocks(rb.lo, bPairs, t.streamWidth, streaming);
        blocks(bPairs, bFull, w, streaming);
      } else {
        blocks(rb.lo, bFull, w, streaming);
      }
      Value bSquares = squaresEnd();
      if (w > n)
        blocks(bFull, bSquares, n, false);
      emitTransposeOuter(inside, 0, s, d, [&](Value s, Value d) {
        tailColumns(s, d, bSquares, ra);
      });
    };
    // Rows of tiles along b first (TransposeTiling::rowsFirst), unless a
    // plan made elsewhere splits b.
    bool rowsFirst = t.rowsFirst && k.plan.parallelLoop != bl;
    // Tiles that store normally finish a plane of a x b, every column of
    // it, before the inside loops move on: a destination line that a tile
    // writes in part is finished while it is in cache, not a whole pass
    // over the inside loops later.
    auto panel = [&](Value s, Value d, Range ra) {
      Range rest = ra;
      if (rowsFirst) {
        Value aWide = floorTo(ra.lo, ra.hi, wide);
        e.forLoop(ra.lo, aWide, wide, [&](Value ia) {
          e.forLoop(rb.lo, bFull, w, [&](Value b0) {
            micro(s, d, la, lb, ia, b0, n, w / n, lineBlocks(n), false);
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
    };
    // A plane of more than 4096 rows of a goes in panels of 2048 rows: each
    // b-block's pass leaves two partial lines per row for the next, 256 KiB
    // per panel, which then are still in L2 (over the whole of a, they are
    // read from memory again). Smaller planes were slower in panels.
    constexpr int64_t kPanelRows = 2048;
    auto plane = [&](Value s, Value d, Range ra) {
      if (la.size <= 2 * kPanelRows)
        return panel(s, d, ra);
      e.forLoop(ra.lo, ra.hi, kPanelRows, [&](Value a0) {
        panel(s, d, Range{a0, e.minI(e.add(a0, e.c64(kPanelRows)), ra.hi)});
      });
    };
    auto planes = [&] {
      emitTransposeOuter(inside, 0, s, d,
                         [&](Value s, Value d) { plane(s, d, ra); });
    };
    if (k.plan.streamingStores && t.staged) {
      assert(inside.empty() && !rangeIsSplit(bl) && "staged rows cut");
      usesStreaming = true;
      return emitStaged(s, d, t, la, lb, ra, plane);
    }
    if (skewed) {
      // A chunk narrower than two lines along b has no line every row can
      // store whole.
      usesStreaming = true;
      Value wide =
          arith::CmpIOp::create(e.b, arith::CmpIPredicate::sge,
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
        streamed(true);
      else
        planes();
    });
  }

  /// Staged rows (TransposeTiling::staged): the chunk's rows [ra.lo,
  /// ra.hi) are one contiguous span of the destination. Each block of
  /// stageRows rows goes through the normal-store tiles (`plane`) into the
  /// buffer (skewBuffer), at its place in the span's lines after the
  /// partial line the previous block left; the buffer's whole lines then
  /// stream out, and the partial one moves to the buffer's front. The
  /// span's first line (when the span does not start it) and last partial
  /// line store normally.
  void emitStaged(Value s, Value d, const TransposeTiling &t,
                  const KernelLoop &la, const KernelLoop &lb, Range ra,
                  function_ref<void(Value, Value, Range)> plane) {
    int64_t rowsPer = t.stageRows, line = lineElements(dst.bytes);
    Type lineType = e.vecOf(dst.mem, line);
    Value spanStart = e.add(d, e.mulc(ra.lo, la.dstStride));
    // Elements of the span's first line before the span.
    Value off = arith::SubIOp::create(e.b, e.c64(line), lineShift(spanStart));
    off = arith::AndIOp::create(e.b, off, e.c64(line - 1));
    Value lineBase = arith::SubIOp::create(e.b, spanStart, off);
    Value hasHead =
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::ne, off, e.c64(0));
    auto block = [&](Value ia, Value count, bool last) {
      // Elements of the span's lines before this block, and those of them
      // still in the buffer.
      Value done = e.add(
          off, e.mulc(arith::SubIOp::create(e.b, ia, ra.lo), la.dstStride));
      Value pos = arith::AndIOp::create(e.b, done, e.c64(line - 1));
      Value to = e.add(lineBase, arith::SubIOp::create(e.b, done, pos));
      {
        llvm::SaveAndRestore<Value> intoBuffer(dstPtr, skewBuffer);
        plane(s, arith::SubIOp::create(e.b, pos, e.mulc(ia, la.dstStride)),
              Range{ia, e.add(ia, count)});
      }
      Value end = e.add(pos, e.mulc(count, la.dstStride));
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
        e.store(e.load(lineType, skewBuffer, dst.mem, tail), skewBuffer,
                dst.mem, e.c64(0));
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

  void ifPositive(Value count, function_ref<void()> body) {
    e.ifElse(
        arith::CmpIOp::create(e.b, arith::CmpIPredicate::sgt, count, e.c64(0)),
        body, [] {});
  }

  /// Copies the rectangle [a0, a1) x [b0, b1) at a tile's edges: masked
  /// squares with maskedEdges, else element by element.
  void edgeRect(Value s, Value d, const TransposeTiling &t,
                const KernelLoop &la, const KernelLoop &lb, Value a0, Value a1,
                Value b0, Value b1) {
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
  Value lanesBelow(int64_t n, Value count) {
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
  void maskedSquare(Value s, Value d, const KernelLoop &la,
                    const KernelLoop &lb, Value ia, Value ib, int64_t n,
                    Value rows, Value cols) {
    Type vt = e.vecOf(src.mem, n);
    Value zero = arith::ConstantOp::create(
        e.b, vt, cast<TypedAttr>(e.b.getZeroAttr(vt)));
    Value base = e.add(e.add(s, ia), e.mulc(ib, lb.srcStride));
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
      Value at = e.add(base, e.mulc(lastOf(j, cols), lb.srcStride));
      in.push_back(LLVM::MaskedLoadOp::create(e.b, vt,
                                              e.gep(srcPtr, src.mem, at), mask,
                                              zero, Emitter::alignOf(src.mem)));
    }
    SmallVector<Value> out = transposeSquare(std::move(in));
    Value first = e.add(e.add(d, ib), e.mulc(ia, la.dstStride));
    for (int64_t i = 0; i < n; ++i) {
      Value mask = lanesBelow(
          n, arith::SelectOp::create(e.b, within(i, rows), cols, none));
      Value at = e.add(first, e.mulc(lastOf(i, rows), la.dstStride));
      LLVM::MaskedStoreOp::create(e.b, e.convert(out[i], src, dst),
                                  e.gep(dstPtr, dst.mem, at), mask,
                                  Emitter::alignOf(dst.mem));
    }
  }

  /// Emits body(true) (streaming stores) when destination element `index`
  /// is aligned to `bytes`, a power of two, at run time, else body(false):
  /// x86 streams only aligned stores.
  void streamIfAligned(Value index, int64_t bytes,
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

  bool rangeIsSplit(int64_t loop) const { return parallelLoop() == loop; }

  /// Squares side by side along a in a micro tile (sourceLineBlocks).
  int64_t lineBlocks(int64_t n) const { return sourceLineBlocks(n, src.bytes); }

  /// An (n * aBlocks) x (n * blocks) tile: square n x n transposes, whose
  /// rows join into one store per destination row.
  void micro(Value s, Value d, const KernelLoop &la, const KernelLoop &lb,
             Value ia, Value ib, int64_t n, int64_t blocks, int64_t aBlocks,
             bool streaming) {
    Type vt = e.vecOf(src.mem, n);
    Value base = e.add(e.add(s, ia), e.mulc(ib, lb.srcStride));
    // rows[ab][blk][j]. Streaming tiles load all their vectors first, so
    // that the loads of one source line stay adjacent, although the 32
    // vectors of a 16x16 f32 tile then spill (one a-block at a time was
    // slower). Tiles that store normally load one a-block at a time and do
    // not spill, which is faster for them.
    auto load = [&](int64_t ab, int64_t blk, int64_t j) {
      return sourceLoad(
          vt, e.add(base, e.c64((blk * n + j) * lb.srcStride + ab * n)),
          streaming && lineStart(ab * n));
    };
    if (streaming && n == 8 && src.bytes == 4 && blocks <= 2 &&
        sourceLinesPerSet(lb, blocks * n) <= 2)
      return streamingQuarters(s, d, la, lb, ia, ib, blocks, aBlocks);
    if (streaming && lanesTile(n, blocks)) {
      usesWideRegisters = true;
      return streamingLanes(s, d, la, lb, ia, ib, n, blocks, aBlocks);
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
        sourceLinesPerSet(lb, blocks * n) > kL1Ways / 2 &&
        linesPerSet(la.dstStride * dst.bytes, aBlocks * n) <= kL1Ways / 2) {
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

  /// Whether streaming n x n squares, `blocks` of them along b, take
  /// streamingLanes: squares of 16-byte rows, with 32 vector registers, whose
  /// destination rows make whole lines.
  bool lanesTile(int64_t n, int64_t blocks) const {
    return lanesSquares(e.vectorRegisters, n, src.bytes, dst.bytes) &&
           blocks * n * dst.bytes == kCacheLineBytes;
  }

  /// Whether a micro tile's load `offset` elements along a starts a new
  /// line's worth of its row.
  bool lineStart(int64_t offset) const {
    return offset * src.bytes % kCacheLineBytes == 0;
  }

  /// Loads a tile's source vector; the first vector of each line's worth
  /// also prefetches `prefetchAhead` bytes further (streaming tiles only).
  Value sourceLoad(Type vt, Value index, bool lineStart) {
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
  ///   streams than the prefetchers follow. 1 KiB ahead along the rows, so
  ///   that the line is in the same row. Not tiles that load rows sharing
  ///   L1 sets in pieces, whose lines come back from L2 anyway; tiles of 16
  ///   rows gain nothing.
  /// - Skewed tiles read kSkewLines + 1 lines' worth of rows, a vector of
  ///   each at a time: 1 KiB ahead along rows of 4 KiB or more (where
  ///   transposeTiling starts skewing tiles of long rows).
  int64_t sourcePrefetchBytes(const TransposeTiling &t) const {
    if (!k.plan.streamingStores || t.interleave)
      return 0;
    auto [a, bl] = *k.plan.tiledLoops;
    const KernelLoop &la = k.plan.loops[a], &lb = k.plan.loops[bl];
    if (la.srcStride <= 0 || lb.srcStride <= 0)
      return 0;
    constexpr int64_t kRowAhead = 1024;
    bool longRows = la.size * la.srcStride * src.bytes >= 4 * kRowAhead;
    if (t.skewed)
      return longRows ? kRowAhead : 0;
    // The rows of each tile's block are adjacent, and the blocks follow one
    // another: prefetch two blocks ahead.
    int64_t w = t.streamWidth;
    int64_t block = w * lb.srcStride * src.bytes;
    if (t.inside.empty() && la.size * la.srcStride == lb.srcStride &&
        block <= (64 << 10))
      return std::max<int64_t>(2 * block, 8 << 10);
    bool wholeLineLoads =
        lanesTile(t.edge, w / t.edge) && lineBlocks(t.edge) == w / t.edge;
    if (w >= 32 && (sourceLinesPerSet(lb, w) <= 8 || wholeLineLoads) &&
        longRows)
      return kRowAhead;
    return 0;
  }

  /// The most of `rows` source rows, b's stride apart, that share one L1 set.
  int64_t sourceLinesPerSet(const KernelLoop &lb, int64_t rows) const {
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
  void streamingQuarters(Value s, Value d, const KernelLoop &la,
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
        Value row = e.add(e.add(d, ib),
                          e.mulc(e.add(ia, e.c64(col + k)), la.dstStride));
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
  void streamingLanes(Value s, Value d, const KernelLoop &la,
                      const KernelLoop &lb, Value ia, Value ib, int64_t n,
                      int64_t blocks, int64_t aBlocks) {
    Type vt = e.vecOf(src.mem, n);
    Value base = e.add(e.add(s, ia), e.mulc(ib, lb.srcStride));
    // rows[ab][j]: row j of the squares of a-block ab, one per lane.
    SmallVector<SmallVector<Value>> rows(aBlocks);
    if (blocks == 4 && aBlocks == 4) {
      Type line = e.vecOf(src.mem, n * aBlocks);
      for (int64_t j = 0; j < n; ++j) {
        SmallVector<Value> whole;
        for (int64_t blk = 0; blk < blocks; ++blk)
          whole.push_back(
              sourceLoad(line, e.add(base, e.c64((blk * n + j) * lb.srcStride)),
                         /*lineStart=*/true));
        SmallVector<Value> byBlock = transposeLanes4(whole, n);
        for (int64_t ab = 0; ab < aBlocks; ++ab)
          rows[ab].push_back(byBlock[ab]);
      }
    } else {
      for (int64_t ab = 0; ab < aBlocks; ++ab)
        for (int64_t j = 0; j < n; ++j) {
          SmallVector<Value> parts;
          for (int64_t blk = 0; blk < blocks; ++blk)
            parts.push_back(sourceLoad(
                vt, e.add(base, e.c64((blk * n + j) * lb.srcStride + ab * n)),
                lineStart(ab * n)));
          rows[ab].push_back(concat(parts));
        }
    }
    for (int64_t ab = 0; ab < aBlocks; ++ab) {
      SmallVector<Value> cols =
          interleaveTranspose(std::move(rows[ab]), blocks);
      Value out =
          e.add(e.add(d, ib), e.mulc(e.add(ia, e.c64(ab * n)), la.dstStride));
      for (int64_t i = 0; i < n; ++i)
        e.store(cols[i], dstPtr, dst.mem, e.add(out, e.c64(i * la.dstStride)),
                /*nontemporal=*/true);
    }
  }

  /// Transposes the 4 x 4 matrix of `n`-element lanes that four vectors
  /// hold: result l is lane l of every vector, vector r's in lane r. Two
  /// rounds of whole-lane shuffles (vshufi64x2 on AVX-512).
  SmallVector<Value> transposeLanes4(ArrayRef<Value> v, int64_t n) {
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

  /// Joins equal-length vectors end to end (pairwise, so LLVM sees a
  /// balanced tree of shuffles).
  Value concat(ArrayRef<Value> parts) {
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

  void emitInterleave(Value s, Value d, const KernelLoop &la,
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

  //===--------------------------------------------------------------------===//
  // Reductions
  //===--------------------------------------------------------------------===//

  void emitReduceNest(size_t depth, Value s, Value a) {
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
    bool cacheResident = bytes && *bytes <= kL2Bytes;
    bool longRows = inner.size * accumulator().bytes > (8 << 10) ||
                    inner.size * src.bytes >= (2 << 10);
    if (l.reduced && depth + 2 == k.plan.loops.size() && !inner.reduced &&
        inner.srcStride == 1 && inner.dstStride == 1 &&
        (cacheResident || longRows)) {
      constexpr int64_t kRows = 8;
      int64_t ahead =
          cacheResident
              ? 0
              : std::max<int64_t>(kRows * std::abs(l.srcStride) * src.bytes,
                                  16 << 10);
      if (l.srcStride < 0)
        ahead = -ahead;
      Value groupsEnd = floorTo(r.lo, r.hi, kRows);
      e.forLoop(r.lo, groupsEnd, kRows, [&](Value i) {
        emitReduceColumns(inner, rangeOf(depth + 1),
                          e.add(s, e.mulc(i, l.srcStride)), a, kRows,
                          l.srcStride, ahead);
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
  void emitReduceRun(const KernelLoop &l, Range r, Value s, Value a) {
    Elem acc = accumulator();
    ReduceOps ops{e, k.reduction, acc};
    int64_t vw = k.plan.vectorWidth;
    constexpr int64_t kAccs = 4, kBlock = 2048;
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
                 Value blockSum = ops.combine(ops.combine(accs[0], accs[1]),
                                              ops.combine(accs[2], accs[3]));
                 return {ops.combine(outer[0], blockSum)};
               })
              .front();
      total = ops.horizontal(sum);
      tail = vecEnd;
    } else {
      total = ops.identity(acc.mem);
    }
    total =
        e.forLoopCarry(tail, r.hi, 1, ValueRange{total},
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
  int64_t runPrefetchBytes() const {
    std::optional<int64_t> bytes = inputBytes();
    return src.bytes == 2 && bytes && *bytes > kL2Bytes ? 8 << 10 : 0;
  }

  /// The bytes of the reduction's input, when their count is known.
  std::optional<int64_t> inputBytes() const {
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
  void emitReduceColumns(const KernelLoop &l, Range r, Value s, Value a,
                         int64_t rows = 1, int64_t rowStride = 0,
                         int64_t ahead = 0) {
    Elem acc = accumulator();
    ReduceOps ops{e, k.reduction, acc};
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
        return e.convert(e.load(src.mem, srcPtr, src.mem,
                                e.add(s, e.add(e.mulc(i, l.srcStride),
                                               e.c64(j * rowStride)))),
                         src, acc);
      });
      Value at = e.add(a, e.mulc(i, l.dstStride));
      Value old = e.freezeLoad(acc.mem, accPtr, acc.mem, at);
      e.store(ops.combine(old, v), accPtr, acc.mem, at);
    });
  }

  /// argmax/argmin walk the input in logical order so that ties and NaNs
  /// resolve to the first index, as PyTorch does. Serial and scalar.
  void emitArgReduction() {
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
        e.store(e.c64(-1), idxSlot, i64, e.c64(0));
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

  void reducedLoop(ArrayRef<int64_t> dims, size_t depth, Value s,
                   Value bestSlot, Value idxSlot, Value runSlot) {
    // The accumulator type: bf16 compares in f32 (see accumulator()).
    Type i64 = e.i64, vt = accumulator().mem;
    if (depth == dims.size()) {
      Value v = e.load(src.mem, srcPtr, src.mem, s);
      if (vt != src.mem)
        v = arith::ExtFOp::create(e.b, vt, v);
      Value run = e.load(i64, runSlot, i64, e.c64(0));
      Value idx = e.load(i64, idxSlot, i64, e.c64(0));
      Value best = e.load(vt, bestSlot, vt, e.c64(0));
      Value first =
          arith::CmpIOp::create(e.b, arith::CmpIPredicate::slt, idx, e.c64(0));
      bool isMax = k.reduction == ReductionKind::Argmax;
      Value better;
      if (src.isFloat) {
        Value cmp = arith::CmpFOp::create(
            e.b, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
            v, best);
        // NaN beats every number; the first NaN stays.
        Value vNan =
            arith::CmpFOp::create(e.b, arith::CmpFPredicate::UNO, v, v);
        Value bestNum =
            arith::CmpFOp::create(e.b, arith::CmpFPredicate::ORD, best, best);
        better = arith::OrIOp::create(
            e.b, cmp, arith::AndIOp::create(e.b, vNan, bestNum));
      } else {
        arith::CmpIPredicate pred = src.isUnsigned
                                        ? (isMax ? arith::CmpIPredicate::ugt
                                                 : arith::CmpIPredicate::ult)
                                        : (isMax ? arith::CmpIPredicate::sgt
                                                 : arith::CmpIPredicate::slt);
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

  Emitter &e;
  const Kernel &k;
  std::string name;
  Elem src, dst;
  Value begin, end, srcPtr, dstPtr, accPtr;
  /// The induction variables of the copy nest's loops around the one being
  /// emitted, outermost first.
  SmallVector<Value> copyIndices;
  /// Skewed transposes: n rows of skewBufferRow() destination elements;
  /// staged rows: the block buffer (emitStaged).
  Value skewBuffer;
  /// sourcePrefetchBytes of the transpose being emitted.
  int64_t prefetchAhead = 0;
  bool usesStreaming = false;
  /// A register tile of 64-byte vectors (16 x 16 of 4-byte elements, or
  /// streamingLanes) was emitted.
  bool usesWideRegisters = false;
};

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

class FunctionBuilder {
public:
  FunctionBuilder(Emitter &e, const FunctionABI &abi) : e(e), abi(abi) {}

  void build() {
    SmallVector<std::unique_ptr<KernelBuilder>> kernels;
    for (auto [i, k] : llvm::enumerate(abi.kernels)) {
      kernels.push_back(std::make_unique<KernelBuilder>(
          e, k, abi.name + "__kernel" + std::to_string(i)));
      kernels.back()->emitChunk();
    }
    buildRaw(kernels);
    buildDLPack();
  }

private:
  void buildRaw(ArrayRef<std::unique_ptr<KernelBuilder>> kernels) {
    SmallVector<Type> params(abi.params.size() + 1, e.ptr);
    auto f = e.startFunction(abi.name + "_raw", e.ptr, params, false);
    Block *entry = &f.getBody().front();
    Value options = entry->getArgument(abi.params.size());
    auto &b = e.b;

    // Reject bad options even when no kernel runs.
    Value one = e.c64(1);
    Value threads = LLVM::AllocaOp::create(b, e.ptr, b.getI32Type(), one, 4);
    Value status =
        e.call("lrt_exec_options_resolve_threads", e.ptr, {options, threads});
    Block *fail = f.addBlock();
    fail->addArgument(e.ptr, b.getLoc());
    Block *cont = f.addBlock();
    LLVM::CondBrOp::create(b, e.isNonNull(status), fail, ValueRange{status},
                           cont, ValueRange{});
    b.setInsertionPointToStart(fail);
    LLVM::ReturnOp::create(b, fail->getArgument(0));
    b.setInsertionPointToStart(cont);

    // One scratch allocation holds intermediate buffers and accumulators.
    SmallVector<int64_t> scratchOffset(abi.buffers.size(), -1),
        accOffset(kernels.size(), -1);
    int64_t scratchBytes = 0;
    auto reserve = [&](int64_t bytes) {
      int64_t at = scratchBytes;
      scratchBytes += llvm::alignTo(std::max<int64_t>(bytes, 1), 64);
      return at;
    };
    for (auto [i, buffer] : llvm::enumerate(abi.buffers))
      if (!buffer.param)
        scratchOffset[i] =
            reserve(buffer.size * elementBytes(buffer.elementType));
    for (auto [i, kb] : llvm::enumerate(kernels))
      if (int64_t n = kb->accumulatorCount())
        accOffset[i] = reserve(n * kb->accumulator().bytes);

    Value scratch = e.nullPtr();
    Block *cleanup = f.addBlock();
    cleanup->addArgument(e.ptr, b.getLoc());
    if (scratchBytes) {
      Value slot = LLVM::AllocaOp::create(b, e.ptr, e.ptr, one, 8);
      Value st =
          e.call("lrt_scratch_alloc", e.ptr, {e.c64(scratchBytes), slot});
      Block *ok = f.addBlock();
      LLVM::CondBrOp::create(b, e.isNonNull(st), fail, ValueRange{st}, ok,
                             ValueRange{});
      b.setInsertionPointToStart(ok);
      scratch = e.load(e.ptr, slot, e.ptr, e.c64(0));
    }

    Type i8 = b.getI8Type();
    SmallVector<Value> base(abi.buffers.size());
    for (auto [i, buffer] : llvm::enumerate(abi.buffers)) {
      Elem el = elemOf(buffer.elementType);
      if (buffer.param)
        base[i] = e.gep(entry->getArgument(*buffer.param), el.mem,
                        e.c64(-buffer.pointerOffset));
      else
        base[i] = e.gep(scratch, i8, e.c64(scratchOffset[i]));
    }

    for (auto [i, kb] : llvm::enumerate(kernels)) {
      const Kernel &k = abi.kernels[i];
      Elem srcEl = elemOf(k.srcType), dstEl = elemOf(k.dstType);
      Value ctxArray = LLVM::AllocaOp::create(b, e.ptr, e.ptr, e.c64(3), 8);
      Value srcView = e.gep(base[k.srcBuffer], srcEl.mem, e.c64(k.src.offset));
      Value dstView = e.gep(base[k.dstBuffer], dstEl.mem, e.c64(k.dst.offset));
      Value acc = accOffset[i] >= 0 ? e.gep(scratch, i8, e.c64(accOffset[i]))
                                    : e.nullPtr();
      e.store(srcView, ctxArray, e.ptr, e.c64(0));
      e.store(dstView, ctxArray, e.ptr, e.c64(1));
      e.store(acc, ctxArray, e.ptr, e.c64(2));
      if (accOffset[i] >= 0)
        kb->emitInit(acc);
      auto [n, grain] = kb->split();
      Value fn = LLVM::AddressOfOp::create(
          b, e.ptr, abi.name + "__kernel" + std::to_string(i));
      Value st = e.call("lrt_parallel_for", e.ptr,
                        {options, e.c64(n), e.c64(grain), fn, ctxArray});
      Block *next = f.addBlock();
      LLVM::CondBrOp::create(b, e.isNonNull(st), cleanup, ValueRange{st}, next,
                             ValueRange{});
      b.setInsertionPointToStart(next);
      if (accOffset[i] >= 0)
        kb->emitFinalize(acc, dstView);
    }
    LLVM::BrOp::create(b, ValueRange{e.nullPtr()}, cleanup);

    b.setInsertionPointToStart(cleanup);
    if (scratchBytes)
      e.call("lrt_scratch_free", Type(), {scratch});
    LLVM::ReturnOp::create(b, cleanup->getArgument(0));
  }

  void buildDLPack() {
    auto &b = e.b;
    // The descriptor lrt_bind_tensors checks the tensors against.
    std::vector<int64_t> desc = bindDescriptor(abi);
    b.setInsertionPointToEnd(e.module.getBody());
    std::string descName = abi.name + "__descriptor";
    auto descType = LLVM::LLVMArrayType::get(e.i64, desc.size());
    LLVM::GlobalOp::create(
        b, descType, /*isConstant=*/true, LLVM::Linkage::Internal, descName,
        DenseIntElementsAttr::get(
            RankedTensorType::get({static_cast<int64_t>(desc.size())}, e.i64),
            desc));
    std::string nameName = abi.name + "__name";
    std::string nameText = abi.name + std::string(1, '\0');
    LLVM::GlobalOp::create(
        b, LLVM::LLVMArrayType::get(b.getI8Type(), nameText.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, nameName,
        b.getStringAttr(nameText));

    SmallVector<Type> params(abi.params.size() + 1, e.ptr);
    auto f = e.startFunction(abi.name, e.ptr, params, false);
    Block *entry = &f.getBody().front();
    int64_t n = abi.params.size();
    Value tensors = LLVM::AllocaOp::create(b, e.ptr, e.ptr,
                                           e.c64(std::max<int64_t>(n, 1)), 8);
    Value data = LLVM::AllocaOp::create(b, e.ptr, e.ptr,
                                        e.c64(std::max<int64_t>(n, 1)), 8);
    for (int64_t i = 0; i < n; ++i)
      e.store(entry->getArgument(i), tensors, e.ptr, e.c64(i));
    Value status =
        e.call("lrt_bind_tensors", e.ptr,
               {LLVM::AddressOfOp::create(b, e.ptr, nameName),
                LLVM::AddressOfOp::create(b, e.ptr, descName), tensors, data});
    Block *fail = f.addBlock();
    Block *ok = f.addBlock();
    LLVM::CondBrOp::create(b, e.isNonNull(status), fail, ok);
    b.setInsertionPointToStart(fail);
    LLVM::ReturnOp::create(b, status);
    b.setInsertionPointToStart(ok);
    SmallVector<Value> args;
    for (int64_t i = 0; i < n; ++i)
      args.push_back(e.load(e.ptr, data, e.ptr, e.c64(i)));
    args.push_back(entry->getArgument(n));
    Value r = e.call(abi.name + "_raw", e.ptr, args);
    LLVM::ReturnOp::create(b, r);
  }

  Emitter &e;
  const FunctionABI &abi;
};

} // namespace

LogicalResult mlir::layout::analyzeFunctions(ModuleOp planned,
                                             const TargetInfo &target,
                                             std::vector<FunctionABI> &abis) {
  for (auto func : planned.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    FailureOr<FunctionABI> abi = analyzeFunction(func, target);
    if (failed(abi))
      return failure();
    abis.push_back(std::move(*abi));
  }
  return success();
}

OwningOpRef<ModuleOp>
mlir::layout::buildKernelModule(MLIRContext *context, Location loc,
                                ArrayRef<FunctionABI> abis,
                                const TargetInfo &target) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  Emitter e(*module);
  e.vectorRegisters = target.vectorRegisters;
  // The runtime's functions; declared up front with exact types.
  e.declare("lrt_scratch_free", LLVM::LLVMVoidType::get(context), {e.ptr});
  for (const FunctionABI &abi : abis)
    FunctionBuilder(e, abi).build();
  return module;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::layout::buildKernelModule(ModuleOp planned,
                                std::vector<FunctionABI> &abis,
                                const TargetInfo &target) {
  MLIRContext *context = planned.getContext();
  prepareKernelContext(context);
  size_t first = abis.size();
  if (failed(analyzeFunctions(planned, target, abis)))
    return failure();
  return buildKernelModule(context, planned.getLoc(),
                           ArrayRef(abis).drop_front(first), target);
}
