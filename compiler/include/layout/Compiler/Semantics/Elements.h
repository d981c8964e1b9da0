//===- Elements.h - Element types and their conversions ---------*- C++ -*-===//
//
// What both backends agree on about element types: the traits of an element
// type as generated code sees it, and the conversion rules between two of
// them, PyTorch's: f16 and bf16 convert through f32, float -> int truncates
// toward zero through a 32- or 64-bit signed integer (as a C cast on x86
// does), and x -> bool is x != 0. The rules are a short list of steps; each
// backend renders a step in its own terms (the CPU as arith ops on its
// memory types, CUDA as C expressions) and views a type through its own
// struct derived from ElementTraits.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_SEMANTICS_ELEMENTS_H
#define LAYOUT_COMPILER_SEMANTICS_ELEMENTS_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace layout {

/// An element type as generated code sees it.
struct ElementTraits {
  /// "f32", "i1", ... (elementName). A backend's own value types (CUDA's
  /// register types) carry their C name. Traits of one name are one type:
  /// converting between them takes no step.
  std::string name;
  /// Bytes in memory: i1 takes a byte.
  int64_t bytes = 0;
  bool isFloat = false;
  /// f16 or bf16: stored in 16 bits, computed with in f32.
  bool isHalf = false;
  bool isBF16 = false;
  bool isBool = false;
  /// Unsigned integers, and i1 (a byte, 0 or 1).
  bool isUnsigned = false;
  /// The element's C type in raw entry points (rawElementCType); empty for
  /// a backend's own value types.
  std::string rawCType;

  int64_t bits() const { return bytes * 8; }
};

/// The traits of integer or float type `t`.
ElementTraits elementTraits(Type t);

/// What one conversion step does.
enum class ConversionKind {
  /// f16/bf16 -> f32 (exact).
  HalfToF32,
  /// f32 -> f16/bf16, rounding to nearest even.
  F32ToHalf,
  /// Any type -> bool: x != 0 (a NaN is true), a byte 0 or 1.
  ToBoolNonZero,
  /// A float -> a wider (exact) or narrower (rounded) float.
  FloatExtend,
  FloatTruncate,
  /// An integer -> a float, by the integer's signedness.
  SignedIntToFloat,
  UnsignedIntToFloat,
  /// A float -> an integer: truncated toward zero into a signed integer of
  /// `viaBits` (32 or 64), then truncated to the target's width; unsigned
  /// targets too.
  FloatToSignedInt,
  /// An integer -> a narrower one (its low bits) or a wider one.
  IntTruncate,
  IntSignExtend,
  IntZeroExtend,
  /// The same bits under another type of the same width (i8 -> ui8, a
  /// backend's f32 register type -> f32).
  Retype,
};

/// The types a step converts between: the conversion's source, its target,
/// or the f32 value type through which halves convert.
enum class ConversionOperand { From, To, F32 };

/// One step of a conversion: a value of `in` becomes a value of `out`.
struct ConversionStep {
  ConversionKind kind;
  ConversionOperand in, out;
  /// FloatToSignedInt: the signed integer's width, max(32, the target's).
  int64_t viaBits = 0;
};

/// The steps that convert a value of `from` to `to`, in order; none when
/// they are one type. `f32` is the backend's 32-bit float value type, which
/// halves convert through (and which may differ from the element type f32
/// by name, as CUDA's register float does).
llvm::SmallVector<ConversionStep, 3> conversionSteps(const ElementTraits &from,
                                                     const ElementTraits &to,
                                                     const ElementTraits &f32);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_SEMANTICS_ELEMENTS_H
