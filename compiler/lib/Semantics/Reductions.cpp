//===- Reductions.cpp - What a reduction computes -------------------------===//
//
// reductionRules: identities, NaN rules and the arg reductions' choice of
// index, for both backends.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Semantics/Reductions.h"

using namespace mlir;
using namespace mlir::layout;

/// The identity of amax/argmax (`max`) or amin/argmin: an infinity for
/// floats, else the bound of the values' integer range.
static ReductionIdentity extremeIdentity(bool max, const ElementTraits &acc,
                                         const ElementTraits &values) {
  ReductionIdentity id;
  if (acc.isFloat) {
    id.kind = max ? IdentityKind::NegInfinity : IdentityKind::Infinity;
    return id;
  }
  unsigned bits = values.bits();
  if (values.isUnsigned && max)
    return id;
  id.kind = IdentityKind::IntegerBound;
  id.boundIsSigned = !values.isUnsigned;
  if (values.isUnsigned)
    id.bound = llvm::APInt::getMaxValue(bits);
  else
    id.bound = max ? llvm::APInt::getSignedMinValue(bits)
                   : llvm::APInt::getSignedMaxValue(bits);
  return id;
}

ReductionRules mlir::layout::reductionRules(ReductionKind kind,
                                            const ElementTraits &acc,
                                            const ElementTraits &values) {
  ReductionRules r;
  r.kind = kind;
  r.isArg = kind == ReductionKind::Argmax || kind == ReductionKind::Argmin;
  r.keepsLarger = kind == ReductionKind::Amax || kind == ReductionKind::Argmax;
  bool extreme =
      r.isArg || kind == ReductionKind::Amax || kind == ReductionKind::Amin;
  r.propagatesNaN = acc.isFloat && extreme && !r.isArg;
  r.nanWins = acc.isFloat && r.isArg;
  if (extreme)
    r.identity = extremeIdentity(r.keepsLarger, acc, values);
  else if (kind == ReductionKind::Prod)
    r.identity.kind = IdentityKind::One;
  return r;
}
