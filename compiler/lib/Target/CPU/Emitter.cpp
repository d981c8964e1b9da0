//===- Emitter.cpp - Element types and the IR emitter ---------------------===//
//
// elemOf, and the members of Emitter that build control flow (scf loops and
// ifs), functions and calls, stores, shuffles and element type conversions.
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "layout/Dialect/Layout/IR/LayoutTypes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

Elem cpu::elemOf(Type t) {
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

void Emitter::store(Value value, Value base, Type elem, Value index,
                    bool nontemporal) {
  unsigned align = alignOf(elem);
  // Non-temporal vectors are aligned to their size up to a line: the
  // callers check lines (a pair of lines may start at any line).
  if (nontemporal)
    if (auto v = dyn_cast<VectorType>(value.getType()))
      align = std::min<unsigned>(v.getNumElements() * align, kCacheLineBytes);
  LLVM::StoreOp::create(b, value, gep(base, elem, index), std::max(1u, align),
                        /*isVolatile=*/false, nontemporal);
}

Value Emitter::shuffle(Value x, Value y, ArrayRef<int64_t> mask) {
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

Value Emitter::convert(Value v, const Elem &from, const Elem &to) {
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
    Value f = from.isUnsigned
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

void Emitter::forLoop(Value lo, Value hi, int64_t step,
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

ValueRange Emitter::forLoopCarry(
    Value lo, Value hi, int64_t step, ValueRange init,
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

void Emitter::ifElse(Value cond, function_ref<void()> thenBody,
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

LLVM::LLVMFuncOp Emitter::declare(StringRef name, Type result,
                                  ArrayRef<Type> params) {
  if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, name,
                                  LLVM::LLVMFunctionType::get(result, params));
}

Value Emitter::call(StringRef name, Type result, ValueRange args) {
  SmallVector<Type> types(args.getTypes());
  LLVM::LLVMFuncOp f = declare(name, result, types);
  auto call = LLVM::CallOp::create(b, f, args);
  return call.getNumResults() ? call.getResult() : Value();
}

LLVM::LLVMFuncOp Emitter::startFunction(StringRef name, Type result,
                                        ArrayRef<Type> params, bool internal) {
  b.setInsertionPointToEnd(module.getBody());
  auto f = LLVM::LLVMFuncOp::create(
      b, name, LLVM::LLVMFunctionType::get(result, params),
      internal ? LLVM::Linkage::Internal : LLVM::Linkage::External);
  Block *entry = f.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  return f;
}
