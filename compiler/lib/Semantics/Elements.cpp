//===- Elements.cpp - Element types and their conversions -----------------===//
//
// elementTraits, and conversionSteps: the conversion rules both backends
// render (Emitter::convert on the CPU, convertExpr in CUDA C++).
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Semantics/Elements.h"
#include "layout/Compiler/Semantics/FunctionABI.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::layout;

ElementTraits mlir::layout::elementTraits(Type t) {
  ElementTraits e;
  e.name = elementName(t);
  e.bytes = elementBytes(t);
  e.isFloat = isa<FloatType>(t);
  e.isHalf = t.isF16() || t.isBF16();
  e.isBF16 = t.isBF16();
  e.isBool = t.isInteger(1);
  e.isUnsigned = t.isUnsignedInteger() || e.isBool;
  e.rawCType = rawElementCType(t);
  return e;
}

SmallVector<ConversionStep, 3>
mlir::layout::conversionSteps(const ElementTraits &from,
                              const ElementTraits &to,
                              const ElementTraits &f32) {
  using K = ConversionKind;
  using Operand = ConversionOperand;
  SmallVector<ConversionStep, 3> steps;
  if (from.name == to.name)
    return steps;
  // Exact on a half too, which therefore compares as it is.
  if (to.isBool) {
    steps.push_back({K::ToBoolNonZero, Operand::From, Operand::To});
    return steps;
  }
  // The value so far: `from`, then what the last step made.
  Operand at = Operand::From;
  const ElementTraits *cur = &from;
  auto step = [&](K kind, Operand out, int64_t viaBits = 0) {
    steps.push_back({kind, at, out, viaBits});
    at = out;
    cur = out == Operand::To ? &to : &f32;
  };
  if (from.isHalf) {
    step(K::HalfToF32, Operand::F32);
    if (f32.name == to.name)
      return steps;
  }
  if (to.isHalf) {
    if (!cur->isFloat)
      step(cur->isUnsigned ? K::UnsignedIntToFloat : K::SignedIntToFloat,
           Operand::F32);
    else if (cur->bytes != f32.bytes)
      step(K::FloatTruncate, Operand::F32);
    step(K::F32ToHalf, Operand::To);
    return steps;
  }
  if (cur->isFloat && to.isFloat) {
    step(cur->bytes < to.bytes   ? K::FloatExtend
         : cur->bytes > to.bytes ? K::FloatTruncate
                                 : K::Retype,
         Operand::To);
  } else if (to.isFloat) {
    step(cur->isUnsigned ? K::UnsignedIntToFloat : K::SignedIntToFloat,
         Operand::To);
  } else if (cur->isFloat) {
    step(K::FloatToSignedInt, Operand::To, std::max<int64_t>(32, to.bits()));
  } else {
    step(cur->bytes > to.bytes    ? K::IntTruncate
         : cur->bytes == to.bytes ? K::Retype
         : cur->isUnsigned        ? K::IntZeroExtend
                                  : K::IntSignExtend,
         Operand::To);
  }
  return steps;
}
