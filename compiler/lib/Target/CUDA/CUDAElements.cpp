//===- CUDAElements.cpp - Element types in generated CUDA C++ -------------===//
//
// How the generated code holds and converts element types: the C type of
// each element type (f16/bf16 as uint16_t bits, i1 as a byte), the register
// types reductions accumulate in, conversions with the CPU backend's rules,
// and typed literals. Every kernel file prints values through these.
//
//===----------------------------------------------------------------------===//

#include "CUDAKernels.h"

#include "layout/Dialect/Layout/IR/LayoutTypes.h"

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
  e.name = elementName(t);
  e.bytes = elementBytes(t);
  e.isFloat = isa<FloatType>(t);
  e.isHalf = t.isF16() || t.isBF16();
  e.isBF16 = t.isBF16();
  e.isBool = t.isInteger(1);
  e.isUnsigned = (i && i.isUnsigned()) || e.isBool;
  // The raw ABI's types, but i1 as its byte: a bool holding any byte then
  // copies and converts as the CPU backend's i8 does.
  e.c = e.isBool ? "uint8_t" : rawElementCType(t);
  return e;
}

CElem cuda::computeElem(StringRef kind) {
  CElem e;
  e.name = kind.str();
  if (kind == "float" || kind == "double") {
    e.c = kind.str();
    e.isFloat = true;
    e.bytes = kind == "float" ? 4 : 8;
  } else if (kind == "int") {
    e.c = "int";
  } else if (kind == "unsigned") {
    e.c = "unsigned";
    e.isUnsigned = true;
  } else {
    e.c = "long long";
    e.bytes = 8;
  }
  return e;
}

std::string cuda::convertExpr(const CElem &from, const CElem &to,
                              const std::string &x) {
  if (from.name == to.name)
    return x;
  if (from.isHalf) {
    std::string f =
        std::string(from.isBF16 ? "lrt_bf16_to_f32(" : "lrt_f16_to_f32(") + x +
        ")";
    return convertExpr(computeElem("float"), to, f);
  }
  if (to.isBool)
    return "(uint8_t)((" + x + ") != 0)";
  if (to.isHalf) {
    std::string f = from.c == "float" ? x : "(float)(" + x + ")";
    return std::string(to.isBF16 ? "lrt_f32_to_bf16(" : "lrt_f32_to_f16(") + f +
           ")";
  }
  if (from.isFloat && !to.isFloat)
    return "(" + to.c + ")(" + (to.bytes == 8 ? "int64_t" : "int32_t") + ")(" +
           x + ")";
  return "(" + to.c + ")(" + x + ")";
}

std::string cuda::lit(int64_t v, StringRef type) {
  if (v < 0)
    return "(" + type.str() + ")(" + std::to_string(v) + ")";
  return "(" + type.str() + ")" + std::to_string(v);
}
