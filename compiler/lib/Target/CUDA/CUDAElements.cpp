//===- CUDAElements.cpp - Element types in generated CUDA C++ -------------===//
//
// How the generated code holds and converts element types: the C type of
// each element type (f16/bf16 as uint16_t bits, i1 as a byte), the register
// types reductions accumulate in, the Semantics module's conversion steps as
// C expressions, and typed literals. Every kernel file prints values through
// these.
//
//===----------------------------------------------------------------------===//

#include "CUDAKernels.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cuda;

std::optional<CElem> cuda::celemOf(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  bool supported =
      t.isF16() || t.isBF16() || t.isF32() || t.isF64() ||
      (i && llvm::is_contained({1u, 8u, 16u, 32u, 64u}, i.getWidth()));
  if (!supported)
    return std::nullopt;
  CElem e;
  static_cast<ElementTraits &>(e) = elementTraits(t);
  // The raw ABI's types, but i1 as its byte: a bool holding any byte then
  // copies and converts as the CPU backend's i8 does.
  e.c = e.isBool ? "uint8_t" : e.rawCType;
  return e;
}

CElem cuda::computeElem(StringRef kind) {
  CElem e;
  e.name = e.c = kind.str();
  e.bytes = 4;
  if (kind == "float" || kind == "double") {
    e.isFloat = true;
    e.bytes = kind == "float" ? 4 : 8;
  } else if (kind == "unsigned") {
    e.isUnsigned = true;
  } else if (kind != "int") {
    e.c = "long long";
    e.bytes = 8;
  }
  return e;
}

/// One conversion step applied to `x`, a value of `in`.
static std::string convertStep(ConversionKind kind, const CElem &in,
                               const CElem &out, int64_t viaBits,
                               const std::string &x) {
  auto toF32 = [&](const std::string &bits) {
    return std::string(in.isBF16 ? "lrt_bf16_to_f32(" : "lrt_f16_to_f32(") +
           bits + ")";
  };
  switch (kind) {
  case ConversionKind::HalfToF32:
    return toF32(x);
  case ConversionKind::F32ToHalf:
    return std::string(out.isBF16 ? "lrt_f32_to_bf16(" : "lrt_f32_to_f16(") +
           x + ")";
  case ConversionKind::ToBoolNonZero:
    // A half compares by its value, not its bits (-0 is false).
    return "(" + out.c + ")((" + (in.isHalf ? toF32(x) : x) + ") != 0)";
  case ConversionKind::FloatToSignedInt:
    return "(" + out.c + ")(int" + std::to_string(viaBits) + "_t)(" + x + ")";
  case ConversionKind::FloatExtend:
  case ConversionKind::FloatTruncate:
  case ConversionKind::SignedIntToFloat:
  case ConversionKind::UnsignedIntToFloat:
  case ConversionKind::IntTruncate:
  case ConversionKind::IntSignExtend:
  case ConversionKind::IntZeroExtend:
  case ConversionKind::Retype:
    // C's conversions of the typed operand are the step.
    return "(" + out.c + ")(" + x + ")";
  }
  llvm_unreachable("unknown conversion step");
}

std::string cuda::convertExpr(const CElem &from, const CElem &to,
                              const std::string &x) {
  CElem f32 = computeElem("float");
  auto of = [&](ConversionOperand o) -> const CElem & {
    return o == ConversionOperand::From ? from
           : o == ConversionOperand::To ? to
                                        : f32;
  };
  std::string e = x;
  for (const ConversionStep &s : conversionSteps(from, to, f32))
    e = convertStep(s.kind, of(s.in), of(s.out), s.viaBits, e);
  return e;
}

std::string cuda::lit(int64_t v, StringRef type) {
  if (v < 0)
    return "(" + type.str() + ")(" + std::to_string(v) + ")";
  return "(" + type.str() + ")" + std::to_string(v);
}
