//===- Emitter.cpp - Element types and the IR emitter ---------------------===//
//
// elemOf, and the members of Emitter that build control flow (scf loops and
// ifs), functions and calls, stores, shuffles and element type conversions
// (the Semantics module's conversion steps as arith ops).
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

Elem cpu::elemOf(Type t) {
  Elem e;
  static_cast<ElementTraits &>(e) = elementTraits(t);
  auto i = dyn_cast<IntegerType>(t);
  e.mem = i ? IntegerType::get(t.getContext(), e.isBool ? 8 : i.getWidth()) : t;
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
  Elem f32 = elemOf(b.getF32Type());
  auto of = [&](ConversionOperand o) -> const Elem & {
    return o == ConversionOperand::From ? from
           : o == ConversionOperand::To ? to
                                        : f32;
  };
  for (const ConversionStep &s : conversionSteps(from, to, f32))
    v = convertStep(v, s.kind, of(s.in), of(s.out), s.viaBits);
  return v;
}

Value Emitter::convertStep(Value v, ConversionKind kind, const Elem &in,
                           const Elem &out, int64_t viaBits) {
  Type t = v.getType(), outT = like(t, out.mem);
  switch (kind) {
  case ConversionKind::ToBoolNonZero: {
    Value zero = arith::ConstantOp::create(b, t, b.getZeroAttr(t));
    Value ne =
        in.isFloat
            ? arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, v, zero)
                  .getResult()
            : arith::CmpIOp::create(b, arith::CmpIPredicate::ne, v, zero)
                  .getResult();
    return arith::ExtUIOp::create(b, outT, ne);
  }
  case ConversionKind::HalfToF32:
  case ConversionKind::FloatExtend:
    return arith::ExtFOp::create(b, outT, v);
  case ConversionKind::F32ToHalf:
  case ConversionKind::FloatTruncate:
    return arith::TruncFOp::create(b, outT, v);
  case ConversionKind::SignedIntToFloat:
    return arith::SIToFPOp::create(b, outT, v);
  case ConversionKind::UnsignedIntToFloat:
    return arith::UIToFPOp::create(b, outT, v);
  case ConversionKind::FloatToSignedInt: {
    Value i = arith::FPToSIOp::create(b, like(t, b.getIntegerType(viaBits)), v);
    if (out.bits() < viaBits)
      i = arith::TruncIOp::create(b, outT, i);
    return i;
  }
  case ConversionKind::IntTruncate:
    return arith::TruncIOp::create(b, outT, v);
  case ConversionKind::IntSignExtend:
    return arith::ExtSIOp::create(b, outT, v);
  case ConversionKind::IntZeroExtend:
    return arith::ExtUIOp::create(b, outT, v);
  case ConversionKind::Retype:
    // The memory types are the same: signless integers, or f32.
    return v;
  }
  llvm_unreachable("unknown conversion step");
}

/// for (i = lo; i < hi; i += step) body(i), built by `b`.
static scf::ForOp buildLoop(ImplicitLocOpBuilder &b, Value lo, Value hi,
                            Value step, function_ref<void(Value)> body) {
  return scf::ForOp::create(
      b, lo, hi, step, ValueRange{},
      [&](OpBuilder &nested, Location, Value iv, ValueRange) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        body(iv);
        scf::YieldOp::create(b);
      });
}

void Emitter::forLoop(Value lo, Value hi, int64_t step,
                      function_ref<void(Value)> body) {
  buildLoop(b, lo, hi, c64(step), body);
}

void Emitter::forLoop(Value lo, Value hi, Value step,
                      function_ref<void(Value)> body) {
  buildLoop(b, lo, hi, step, body);
}

void Emitter::shortLoop(Value lo, Value hi, function_ref<void(Value)> body) {
  scf::ForOp loop = buildLoop(b, lo, hi, c64(1), body);
  BoolAttr yes = b.getBoolAttr(true);
  auto noVectors = LLVM::LoopVectorizeAttr::get(ctx, /*disable=*/yes, {}, {},
                                                {}, {}, {}, {});
  auto noUnroll =
      LLVM::LoopUnrollAttr::get(ctx, /*disable=*/yes, {}, {}, {}, {}, {}, {});
  loop->setAttr("loop_annotation", LLVM::LoopAnnotationAttr::get(
                                       ctx, {}, noVectors, {}, noUnroll, {}, {},
                                       {}, {}, {}, {}, {}, {}, {}, {}, {}));
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
