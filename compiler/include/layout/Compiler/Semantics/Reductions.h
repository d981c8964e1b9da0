//===- Reductions.h - What a reduction computes -----------------*- C++ -*-===//
//
// What both backends agree on about reductions beyond their arithmetic: the
// value an accumulator starts from, how NaNs propagate, and which index an
// arg reduction returns. The CPU backend (ReduceOps, the argmax/argmin walk)
// and the CUDA backend (identities and the combine and better helpers) take
// them from reductionRules.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_SEMANTICS_REDUCTIONS_H
#define LAYOUT_COMPILER_SEMANTICS_REDUCTIONS_H

#include "layout/Compiler/Plan/KernelPlan.h"
#include "layout/Compiler/Semantics/Elements.h"

#include "llvm/ADT/APInt.h"

namespace mlir {
namespace layout {

/// The index an argmax/argmin holds before its first value, and so the
/// result of one over no values.
constexpr int64_t kArgNoIndex = -1;

/// Which value an accumulator starts from (the result of a sum, product,
/// amax or amin over no values).
enum class IdentityKind {
  Zero,
  One,
  /// -inf, +inf: float amax/argmax and amin/argmin.
  NegInfinity,
  Infinity,
  /// The least value of a signed integer type (amax/argmax) or the
  /// greatest of any integer type (amin/argmin); for unsigned amax/argmax
  /// it is Zero.
  IntegerBound,
};

struct ReductionIdentity {
  IdentityKind kind = IdentityKind::Zero;
  /// IntegerBound: the bound, as wide as the values' type; an accumulator
  /// wider than the values holds it extended by `boundIsSigned`.
  llvm::APInt bound;
  bool boundIsSigned = false;
};

/// The rules of one reduction over values held in one accumulator type.
struct ReductionRules {
  ReductionKind kind = ReductionKind::Sum;
  /// argmax/argmin: the result is an index, kArgNoIndex before any value.
  bool isArg = false;
  /// amax and argmax keep the larger value, amin and argmin the smaller.
  /// An arg reduction's later value replaces the best only when strictly
  /// beyond it: ties keep the first index.
  bool keepsLarger = false;
  /// Float amax/amin: the result is NaN when any value is.
  bool propagatesNaN = false;
  /// Float argmax/argmin: a NaN beats every number and the first NaN
  /// stays, so the result is the first NaN's index when there is one.
  bool nanWins = false;
  ReductionIdentity identity;
};

/// The rules of a `kind` reduction of values of type `values` accumulated
/// in `acc` (the values' type, or one that holds them exactly).
ReductionRules reductionRules(ReductionKind kind, const ElementTraits &acc,
                              const ElementTraits &values);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_SEMANTICS_REDUCTIONS_H
